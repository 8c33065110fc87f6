#include "source/snapshot_id.hpp"

namespace moonquota::source {

bool is_valid_snapshot_id(std::string_view id) {
  if (id.size() != 19) return false;
  for (std::size_t i = 0; i < id.size(); ++i) {
    if (i == 8 || i == 15) {
      if (id[i] != '_') return false;
    } else if (id[i] < '0' || id[i] > '9') {
      return false;
    }
  }
  return true;
}

bool is_calendar_valid_snapshot_id(std::string_view id) {
  if (!is_valid_snapshot_id(id)) return false;
  auto num = [&](std::size_t pos, std::size_t len) {
    int v = 0;
    for (std::size_t i = pos; i < pos + len; ++i) v = v * 10 + (id[i] - '0');
    return v;
  };
  int year = num(0, 4), month = num(4, 2), day = num(6, 2);
  int hour = num(9, 2), minute = num(11, 2), second = num(13, 2);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60) return false;
  static constexpr int k_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  int max_day = k_days[month - 1] + (month == 2 && leap ? 1 : 0);
  return day <= max_day;
}

}  // namespace moonquota::source
