s#http://127\.0\.0\.1:[0-9]+#@MASTER@#g
s#sampled at [0-9T:.Z-]+ \([0-9]+ ms\)#sampled at @TIME@#
s#^(age: +)metadata is .* (older|newer) than the live sample#\1metadata is @AGE@ \2 than the live sample#
s#metadata is [0-9][^:]* (older|newer) than the live sample:#metadata is @AGE@ \1 than the live sample:#
s#^(moonquota_reconcile_last_(run|success)_timestamp_seconds[{][^}]*[}]) .*#\1 @TIME@#
s#^(moonquota_reconcile_metadata_age_seconds[{][^}]*[}]) .*#\1 @AGE@#
