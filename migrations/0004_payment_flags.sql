-- The seed doctors' photos move under doctors/ (the local stack puts any missing photo there).
UPDATE doctors SET image_key = 'doctors/' || image_key WHERE image_key GLOB 'seed-dr-*.png';
