#!/usr/bin/env python3
"""Writes snapshots/sample/scenario.json: the README's sample store, a few thousand objects.

Deterministic (fixed seed, python3 stdlib only). Re-run and re-forge after changing it:
    python3 scripts/make-sample-scenario.py > snapshots/sample/scenario.json
    build/tools/snapshot-forge snapshots/sample/scenario.json --out snapshots/sample/store --force

Tenants: acme-llm, beta-search, gamma-rec (with policies), orphan-lab (objects, no policy),
cold-archive (disk-only: DISK replicas only, never charged). Three clients, one 64 MiB segment
each. Mixed replicas; a few PROCESSING and lease-expired objects exercise the restore drops;
two removed objects exercise allocator frees; one discarded replica; two tasks; one local-disk
client with a pending offload task.
"""
import json
import random

SNAPSHOT_ID = "20260822_051200_123"
CREATED_AT_MS = 1787375520123  # 2026-08-22T05:12:00.123Z
LEASE_MS = 4102444800000  # 2100-01-01T00:00:00Z: survives any realistic --restore-time
SEGMENT_BYTES = 64 * 1024 * 1024

CLIENTS = [
    {"client": "1001-1", "segment": "2001-1", "name": "node-a:gpu0", "endpoint": "10.0.0.11:17812",
     "base": 0x7F0000000000},
    {"client": "1002-2", "segment": "2002-2", "name": "node-b:gpu0", "endpoint": "10.0.0.12:17812",
     "base": 0x7F1000000000},
    {"client": "1003-3", "segment": "2003-3", "name": "node-c:gpu0", "endpoint": "10.0.0.13:17812",
     "base": 0x7F2000000000},
]

# tenant -> (object count, smallest size, largest size)
TENANTS = {
    "acme-llm": (1200, 8 * 1024, 48 * 1024),
    "beta-search": (800, 4 * 1024, 24 * 1024),
    "gamma-rec": (450, 2 * 1024, 16 * 1024),
    "orphan-lab": (250, 4 * 1024, 32 * 1024),
    "cold-archive": (200, 64 * 1024, 256 * 1024),
}


def make_objects(rng):
    objects = []
    for tenant, (count, low, high) in TENANTS.items():
        for i in range(count):
            size = rng.randint(low, high)
            writer = rng.randrange(len(CLIENTS))
            other = (writer + 1 + rng.randrange(len(CLIENTS) - 1)) % len(CLIENTS)
            key = f"{tenant}/model-{rng.randrange(3)}/layer-{rng.randrange(40):02d}/block-{i:05d}"
            obj = {"tenant": tenant, "key": key, "size": size, "client_id": CLIENTS[writer]["client"],
                   "put_start_time_ms": CREATED_AT_MS - rng.randrange(3_600_000),
                   "lease_timeout_ms": LEASE_MS, "data_type": "KVCACHE"}
            mem = {"type": "MEMORY", "segment": CLIENTS[writer]["segment"]}
            roll = rng.random()
            if tenant == "cold-archive":
                replicas = [{"type": "DISK"}]
                obj["data_type"] = "WEIGHT"
            elif roll < 0.10:
                replicas = [mem, {"type": "MEMORY", "segment": CLIENTS[other]["segment"]}]
            elif roll < 0.15:
                replicas = [mem, {"type": "DISK"}]
            elif roll < 0.18:
                replicas = [mem, {"type": "LOCAL_DISK", "client": CLIENTS[other]["client"],
                                  "endpoint": CLIENTS[other]["endpoint"]}]
            else:
                replicas = [mem]
            obj["replicas"] = replicas
            objects.append(obj)
    rng.shuffle(objects)  # put order across tenants, as a live cluster interleaves them
    return objects


def add_special_cases(objects):
    # In-flight puts (PutStart without PutEnd): PROCESSING replicas, lease 0 -> dropped as non_complete.
    for obj in objects[10:13]:
        for r in obj["replicas"]:
            r["status"] = "PROCESSING"
        obj["lease_timeout_ms"] = 0
    # Leases already over at snapshot time -> dropped as lease_expired.
    for obj in objects[20:24]:
        obj["lease_timeout_ms"] = CREATED_AT_MS - 5000
    # A DISK copy still being written drops the whole object too.
    for obj in objects[30:40]:
        if len(obj["replicas"]) == 2 and obj["replicas"][1]["type"] == "DISK":
            obj["replicas"][1]["status"] = "PROCESSING"
            break
    # Removed before the snapshot: allocated, then freed; not in the metadata.
    objects[50]["removed"] = True
    objects[51]["removed"] = True
    # Grouped objects (shard by group id) and a checksum.
    objects[60]["group_id"] = "acme-shared-prefix"
    objects[61]["group_id"] = "acme-shared-prefix"
    objects[62]["checksum"] = 0x1234_5678_9ABC_DEF0


def main():
    rng = random.Random(20260822)
    objects = make_objects(rng)
    add_special_cases(objects)
    snapshot = {
        "id": SNAPSHOT_ID,
        "latest": True,
        "descriptor": {"last_included_seq": 0, "producer_view_version": 0, "created_at_ms": CREATED_AT_MS},
        "segments": [
            {"id": c["segment"], "name": c["name"], "base": c["base"], "size": SEGMENT_BYTES,
             "endpoint": c["endpoint"], "status": "OK", "client": c["client"]}
            for c in CLIENTS
        ],
        "objects": objects,
        "discarded_replicas": [
            {"ttl_ms": CREATED_AT_MS + 600000, "size": 16384, "key": "acme-llm/upsert-old",
             "replicas": [{"type": "MEMORY", "segment": CLIENTS[0]["segment"]}]}
        ],
        "tasks": [
            {"id": "3001-1", "type": "REPLICA_COPY", "status": "PENDING", "assigned_client": CLIENTS[1]["client"],
             "created_at_ms": CREATED_AT_MS - 1000, "message": "",
             "payload": {"tenant_id": "acme-llm", "key": objects[0]["key"], "source": CLIENTS[0]["name"],
                         "targets": [CLIENTS[1]["name"]], "dynamic_replication_lease_id_high": 0,
                         "dynamic_replication_lease_id_low": 0, "dynamic_replication_version_epoch": 0}},
            {"id": "3002-1", "type": "REPLICA_MOVE", "status": "SUCCESS", "assigned_client": CLIENTS[2]["client"],
             "created_at_ms": CREATED_AT_MS - 9000, "last_updated_at_ms": CREATED_AT_MS - 8000,
             "message": "done",
             "payload": {"tenant_id": "beta-search", "key": objects[1]["key"], "source": CLIENTS[2]["name"],
                         "target": CLIENTS[0]["name"]}},
        ],
        "local_disk_clients": [
            {"client": CLIENTS[1]["client"], "enable_offloading": True, "total_capacity_bytes": 1 << 40,
             "tasks": [{"tenant": "acme-llm", "key": objects[2]["key"], "size": objects[2]["size"]}]}
        ],
    }
    scenario = {
        "comment": "README sample store; generated by scripts/make-sample-scenario.py, do not edit by hand.",
        "cluster_id": "mooncake_cluster",
        "root_fs_dir": "/mnt/mooncake_fs",
        "snapshots": [snapshot],
    }
    print(render(scenario))


def render(scenario):
    """Indented JSON, except that every object, segment and task sits on one line (diff-friendly)."""
    snapshot = scenario["snapshots"][0]
    lines = ["{"]
    for key in ("comment", "cluster_id", "root_fs_dir"):
        lines.append(f'  {json.dumps(key)}: {json.dumps(scenario[key])},')
    lines.append('  "snapshots": [')
    lines.append("    {")
    fields = list(snapshot.items())
    for n, (key, value) in enumerate(fields):
        comma = "," if n + 1 < len(fields) else ""
        if isinstance(value, list):
            lines.append(f"      {json.dumps(key)}: [")
            for m, item in enumerate(value):
                item_comma = "," if m + 1 < len(value) else ""
                lines.append(f"        {json.dumps(item, separators=(',', ':'))}{item_comma}")
            lines.append(f"      ]{comma}")
        else:
            lines.append(f"      {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("    }")
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
