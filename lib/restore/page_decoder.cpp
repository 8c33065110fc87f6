#include "restore/page_decoder.hpp"

#include <system_error>

#include "source/oplog_keys.hpp"

namespace moonquota::restore {

PageDecoder::PageDecoder(const source::OpLogKeySet& keys, std::span<const source::KeyValue* const> page, bool ahead)
    : m_keys(keys), m_page(page) {
  if (!ahead || page.size() < 2) return;
  try {
    m_thread = std::thread([this] { run_ahead(); });
  } catch (const std::system_error&) {
    // No thread to be had: next() decodes on the caller's thread.
  }
}

PageDecoder::~PageDecoder() {
  if (!m_thread.joinable()) return;
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_changed.notify_all();
  m_thread.join();
}

void PageDecoder::decode(std::size_t index, DecodedBatch& out) const {
  const source::KeyValue* kv = m_page[index];
  out.findings.clear();
  out.status = {};
  const auto id = source::parse_d20(std::string_view(kv->key).substr(m_keys.root.size() + 8));
  if (!id) {
    out.outcome = DecodedBatch::Outcome::malformed_key;
    return;
  }
  out.key_id = *id;
  auto text = source::oplog_value(m_keys, static_cast<std::size_t>(kv - m_keys.kvs.data()), out.scratch);
  if (!text.ok()) {
    out.outcome = DecodedBatch::Outcome::unreadable;
    out.status = text.status();
    return;
  }
  if (util::Status s = format::decode_batch_view(*text, kv->key, out.findings, out.batch); !s.ok()) {
    out.outcome = DecodedBatch::Outcome::undecodable;
    out.status = std::move(s);
    return;
  }
  out.outcome = out.batch.batch_id == *id ? DecodedBatch::Outcome::decoded : DecodedBatch::Outcome::wrong_id;
}

void PageDecoder::run_ahead() {
  for (std::size_t i = 0; i < m_page.size(); ++i) {
    {
      // Slot i % 2 held batch i - 2: it is free once the caller has taken batch i - 1 (it then
      // holds only that one, in the other slot).
      std::unique_lock lock(m_mutex);
      m_changed.wait(lock, [&] { return m_stop || m_taken >= i; });
      if (m_stop) return;
    }
    decode(i, m_slots[i % 2]);
    {
      std::lock_guard lock(m_mutex);
      m_decoded = i + 1;
    }
    m_changed.notify_all();
  }
}

DecodedBatch& PageDecoder::next() {
  const std::size_t i = m_taken;
  DecodedBatch& slot = m_slots[i % 2];
  if (!m_thread.joinable()) {
    ++m_taken;
    decode(i, slot);
    return slot;
  }
  std::unique_lock lock(m_mutex);
  ++m_taken;
  m_changed.notify_all();
  m_changed.wait(lock, [&] { return m_decoded > i; });
  return slot;
}

}  // namespace moonquota::restore
