s#^(moonquota_reconcile_last_(run|success)_timestamp_seconds[{][^}]*[}]) [0-9.]+$#\1 @NOW@#
