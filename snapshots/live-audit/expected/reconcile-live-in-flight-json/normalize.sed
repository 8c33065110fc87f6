s#http://127\.0\.0\.1:[0-9]+#@MASTER@#g
s#"(sampled_at_ms|last_sample_ms|age_ms)": -?[0-9]+#"\1": 0#
