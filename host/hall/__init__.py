"""Many tables, one hall: hubs publish their public state to an MQTT broker (docs/hall.md)."""
