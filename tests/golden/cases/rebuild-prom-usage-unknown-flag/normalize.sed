s#^(moonquota_rebuild_last_run_timestamp_seconds\{[^}]*\}) .*#\1 @TIME@#
