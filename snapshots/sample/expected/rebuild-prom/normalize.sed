s#^(moonquota_rebuild_last_(run|success)_timestamp_seconds\{[^}]*\}) .*#\1 @TIME@#
