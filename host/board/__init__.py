"""A board's content and provisioning: compiling, the board image, flashing, deck tags, the firmware's layouts."""
