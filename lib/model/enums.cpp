#include "model/enums.hpp"

namespace moonquota::model {

std::optional<const char*> EnumTable::find_name(std::int64_t value) const {
  for (const EnumName& n : m_names) {
    if (n.value == value) return n.name;
  }
  return std::nullopt;
}

const char* EnumTable::name(std::int64_t value) const { return find_name(value).value_or(m_unknown_name); }

std::string EnumTable::name_or_number(std::int64_t value) const {
  const auto found = find_name(value);
  return found ? std::string(*found) : std::to_string(value);
}

std::optional<std::int64_t> EnumTable::parse(std::string_view name) const {
  for (const EnumName& n : m_names) {
    if (name == n.name) return n.value;
  }
  return std::nullopt;
}

namespace {

constexpr EnumName k_replica_type_names[] = {
    {replica_type::memory, "MEMORY"},   {replica_type::disk, "DISK"}, {replica_type::local_disk, "LOCAL_DISK"},
    {replica_type::nof_ssd, "NOF_SSD"}, {replica_type::dfs, "DFS"},
};

constexpr EnumName k_replica_status_names[] = {
    {replica_status::undefined, "UNDEFINED"},   {replica_status::initialized, "INITIALIZED"},
    {replica_status::processing, "PROCESSING"}, {replica_status::complete, "COMPLETE"},
    {replica_status::removed, "REMOVED"},       {replica_status::failed, "FAILED"},
};

constexpr EnumName k_data_type_names[] = {
    {data_type::unknown, "UNKNOWN"},   {data_type::kvcache, "KVCACHE"},
    {data_type::tensor, "TENSOR"},     {data_type::weight, "WEIGHT"},
    {data_type::sample, "SAMPLE"},     {data_type::activation, "ACTIVATION"},
    {data_type::gradient, "GRADIENT"}, {data_type::optimizer_state, "OPTIMIZER_STATE"},
    {data_type::metadata, "METADATA"}, {data_type::general, "GENERAL"},
};

constexpr EnumName k_segment_status_names[] = {
    {segment_status::undefined, "UNDEFINED"},
    {segment_status::ok, "OK"},
    {segment_status::draining, "DRAINING"},
    {segment_status::drained, "DRAINED"},
    {segment_status::gracefully_unmounting, "GRACEFULLY_UNMOUNTING"},
    {segment_status::unmounting, "UNMOUNTING"},
};

constexpr EnumName k_task_type_names[] = {
    {task_type::replica_copy, "REPLICA_COPY"},
    {task_type::replica_move, "REPLICA_MOVE"},
};

constexpr EnumName k_task_status_names[] = {
    {task_status::pending, "PENDING"},
    {task_status::processing, "PROCESSING"},
    {task_status::failed, "FAILED"},
    {task_status::success, "SUCCESS"},
};

constexpr EnumName k_oplog_op_type_names[] = {
    {oplog_op_type::put_end, "PUT_END"},
    {oplog_op_type::put_revoke, "PUT_REVOKE"},
    {oplog_op_type::remove, "REMOVE"},
    {oplog_op_type::lease_renew, "LEASE_RENEW"},
    {oplog_op_type::segment_mount, "SEGMENT_MOUNT"},
    {oplog_op_type::segment_unmount, "SEGMENT_UNMOUNT"},
    {oplog_op_type::segment_update, "SEGMENT_UPDATE"},
};

constexpr EnumName k_oplog_replica_variant_names[] = {
    {oplog_replica_variant::memory, "MEMORY"}, {oplog_replica_variant::nof, "NOF"},
    {oplog_replica_variant::disk, "DISK"},     {oplog_replica_variant::local_disk, "LOCAL_DISK"},
    {oplog_replica_variant::dfs, "DFS"},
};

}  // namespace

// constinit: the tables are ready before any other static initializer can name a value.
constinit const EnumTable replica_type::k_table{k_replica_type_names, "UNKNOWN"};
constinit const EnumTable replica_status::k_table{k_replica_status_names, "OUT_OF_RANGE"};
constinit const EnumTable data_type::k_table{k_data_type_names, "RESERVED"};
constinit const EnumTable segment_status::k_table{k_segment_status_names, "OUT_OF_RANGE"};
constinit const EnumTable task_type::k_table{k_task_type_names, "OUT_OF_RANGE"};
constinit const EnumTable task_status::k_table{k_task_status_names, "OUT_OF_RANGE"};
constinit const EnumTable oplog_op_type::k_table{k_oplog_op_type_names, "INVALID"};
constinit const EnumTable oplog_replica_variant::k_table{k_oplog_replica_variant_names, "INVALID"};

}  // namespace moonquota::model
