"""The hub's web views: the server, the mat drawings and the static pages (TV, phones)."""
