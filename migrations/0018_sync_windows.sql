-- backward-compatible: yes
-- Server-side sync windows (issue 18): the part of a datastore devices get, whatever they ask. A tenant's window
-- applies to its devices; a device's own window (all four columns set, or none) replaces the tenant's. Zero means no
-- limit. Days count back and ahead of the session's clock, so a window moves with time.
ALTER TABLE tenants
    ADD COLUMN window_past_days integer NOT NULL DEFAULT 0 CHECK (window_past_days >= 0),
    ADD COLUMN window_future_days integer NOT NULL DEFAULT 0 CHECK (window_future_days >= 0),
    ADD COLUMN window_max_items integer NOT NULL DEFAULT 0 CHECK (window_max_items >= 0),
    ADD COLUMN window_max_photo_bytes integer NOT NULL DEFAULT 0 CHECK (window_max_photo_bytes >= 0);

ALTER TABLE devices
    ADD COLUMN window_past_days integer CHECK (window_past_days >= 0),
    ADD COLUMN window_future_days integer CHECK (window_future_days >= 0),
    ADD COLUMN window_max_items integer CHECK (window_max_items >= 0),
    ADD COLUMN window_max_photo_bytes integer CHECK (window_max_photo_bytes >= 0),
    ADD CONSTRAINT devices_window_whole CHECK (
        (window_past_days IS NULL) = (window_future_days IS NULL)
        AND (window_past_days IS NULL) = (window_max_items IS NULL)
        AND (window_past_days IS NULL) = (window_max_photo_bytes IS NULL));
