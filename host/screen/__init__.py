"""The terminal views: the live scoreboard, the monitor, events in words."""
