// The batches of one OpLog poll page, decoded in key order for the replay (restore/oplog_replay):
// on the caller's thread when it asks for each, or (ahead) on a thread of its own that decodes
// the next batch while the caller applies the one before. Either way the caller sees the same
// batches, findings and errors in the same order; ahead holds at most two decoded batches.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <thread>

#include "format/oplog_batch.hpp"
#include "model/finding.hpp"
#include "source/oplog_source.hpp"
#include "util/status.hpp"

namespace moonquota::restore {

struct DecodedBatch {
  enum class Outcome {
    decoded,
    malformed_key,  // the key's batch id is not 20 digits: the reader skips it
    unreadable,     // its value could not be read again (status)
    undecodable,    // decode_batch_view refused it (status)
    wrong_id,       // the record's batch_id differs from its key's (rule 13)
  };
  Outcome outcome = Outcome::decoded;
  util::Status status;
  std::uint64_t key_id = 0;
  std::string scratch;       // the value, when read again from the export file
  format::BatchView batch;   // its entries are views into scratch, the held value or itself
  model::Findings findings;  // the decoder's
};

class PageDecoder {
 public:
  // `page` lists the page's keys in order; `keys` holds them. With `ahead` (and a thread to be
  // had: when none starts, it decodes on the caller's thread) the next batch is decoded while the
  // caller works on one.
  PageDecoder(const source::OpLogKeySet& keys, std::span<const source::KeyValue* const> page, bool ahead);
  ~PageDecoder();
  PageDecoder(const PageDecoder&) = delete;
  PageDecoder& operator=(const PageDecoder&) = delete;

  // The page's next batch (call at most page.size() times); valid until the call after.
  DecodedBatch& next();

 private:
  void decode(std::size_t index, DecodedBatch& out) const;
  void run_ahead();

  const source::OpLogKeySet& m_keys;
  std::span<const source::KeyValue* const> m_page;
  DecodedBatch m_slots[2];
  std::size_t m_taken = 0;  // batches next() handed out
  // Ahead only: batches the thread has decoded; the caller's slot is m_slots[(m_taken - 1) % 2].
  std::size_t m_decoded = 0;
  bool m_stop = false;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::thread m_thread;
};

}  // namespace moonquota::restore
