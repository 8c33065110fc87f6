s#^(moonquota_reconcile_last_run_timestamp_seconds[{][^}]*[}]) [0-9.]+$#\1 @NOW@#
