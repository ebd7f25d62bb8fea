"""Device drivers; each receives its bus and pin objects from a board profile (no `machine`)."""
