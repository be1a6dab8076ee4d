-- +goose Up
-- Locations (issue: the second brain): an address is an attribute value
-- over time (home, work, school address, school), and where Hearth knows
-- it, its coordinates, from a geocoder or given in chat. Proximity is
-- measured with earthdistance (migration 00001 creates it), inside the
-- same permission-checked reads as every fact.
ALTER TABLE facts
    ADD COLUMN latitude  double precision,
    ADD COLUMN longitude double precision,
    ADD CONSTRAINT facts_place CHECK (
        (latitude IS NULL) = (longitude IS NULL)
        AND (latitude IS NULL OR latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180));

-- +goose Down
ALTER TABLE facts DROP CONSTRAINT facts_place, DROP COLUMN longitude, DROP COLUMN latitude;
