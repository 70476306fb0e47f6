"""What pages, phones, sheets, the projector and the export read: no module here writes."""
