#include "restore/oplog_replay.hpp"

#include <algorithm>
#include <array>
#include <optional>

#include "restore/page_decoder.hpp"
#include "source/oplog_keys.hpp"

namespace moonquota::restore {

namespace {

using util::Status;

// Look-ahead distances of the object map's cache hints (walk_batch), in entries.
constexpr std::size_t k_slot_ahead = 8;
constexpr std::size_t k_entry_ahead = 4;
constexpr std::size_t k_probe_ring = 16;  // > k_slot_ahead

Status fatal(const std::string& rule, const std::string& where, const std::string& message) {
  return Status::corruption(rule + ": " + where + ": " + message +
                            " (a real standby enters FAILED here: INCOMPLETE_OPLOG_CATCH_UP)");
}

struct BatchKeys {
  std::vector<const source::KeyValue*> batches;  // every key under batches/, malformed included, key order
  const source::KeyValue* prefix = nullptr;
};

BatchKeys index_keys(const source::OpLogKeySet& keys) {
  BatchKeys out;
  for (const auto& kv : keys.kvs) {
    const std::string_view suffix = std::string_view(kv.key).substr(keys.root.size());
    if (suffix == "durable_prefix") out.prefix = &kv;
    if (suffix.rfind("batches/", 0) == 0) out.batches.push_back(&kv);
  }
  return out;
}

class Replayer {
 public:
  Replayer(const source::OpLogKeySet& keys, ReplayTarget& store, std::uint64_t last_included_seq,
           const ReplayOptions& options)
      : m_keys(keys), m_options(options), m_applier(store, last_included_seq) {
    m_result.origin = keys.origin;
    m_result.first_expected = last_included_seq + 1;
  }

  util::Result<ReplayResult> run() {
    const BatchKeys index = index_keys(m_keys);
    MQ_RETURN_IF_ERROR(read_prefix(index));
    if (m_result.prefix && m_result.prefix->batch_id > 0) {
      MQ_RETURN_IF_ERROR(check_terminal_batch(index));
      MQ_RETURN_IF_ERROR(walk(index));
    }
    return finish();
  }

 private:
  // The stored value of one of m_keys' pairs (held, or read again from the export file).
  util::Result<std::string_view> value_of(const source::KeyValue* kv, std::string& scratch) const {
    return source::oplog_value(m_keys, static_cast<std::size_t>(kv - m_keys.kvs.data()), scratch);
  }

  std::string batch_key(std::uint64_t id) const { return m_keys.root + "batches/" + source::d20(id); }

  Status read_prefix(const BatchKeys& index) {
    if (index.prefix == nullptr) {
      if (m_result.first_expected > 1) {
        return Status::corruption("durable_prefix: missing while the snapshot baseline is at sequence " +
                                  std::to_string(m_result.first_expected - 1) +
                                  ": promotion fails with INCOMPLETE_OPLOG_CATCH_UP");
      }
      if (!index.batches.empty()) {
        m_result.orphan_batches = index.batches.size();
        m_result.findings.push_back({model::Severity::error, m_keys.root + "durable_prefix",
                                     std::to_string(index.batches.size()) +
                                         " batch keys exist without a durable_prefix: all are orphans; the new "
                                         "Primary's writer refuses to start (INTERNAL_ERROR)"});
      }
      return {};
    }
    std::string scratch;
    MQ_ASSIGN_OR_RETURN(std::string_view text, value_of(index.prefix, scratch));
    auto prefix = format::decode_durable_prefix(text, m_result.findings);
    if (!prefix.ok()) return fatal("prefix", index.prefix->key, prefix.status().message() + " (INTERNAL_ERROR)");
    m_result.prefix = *prefix;
    if (prefix->batch_id == 0 && prefix->last_seq != 0) {
      return fatal("zero prefix", index.prefix->key, "batch_id 0 with last_seq " + std::to_string(prefix->last_seq));
    }
    if (prefix->batch_id == 0 && !index.batches.empty()) {
      m_result.orphan_batches = index.batches.size();
      m_result.findings.push_back({model::Severity::error, index.prefix->key,
                                   "the prefix is zero but batch keys exist: orphans; the new Primary's writer "
                                   "refuses to start"});
    }
    if (prefix->batch_id != 0 && prefix->last_seq == 0) {
      return fatal("zero prefix", index.prefix->key,
                   "batch_id " + std::to_string(prefix->batch_id) + " with last_seq 0");
    }
    return {};
  }

  const source::KeyValue* find(const BatchKeys& index, const std::string& key) const {
    auto it = std::lower_bound(index.batches.begin(), index.batches.end(), key,
                               [](const source::KeyValue* kv, const std::string& k) { return kv->key < k; });
    return it != index.batches.end() && (*it)->key == key ? *it : nullptr;
  }

  Status check_terminal_batch(const BatchKeys& index) {
    const auto& prefix = *m_result.prefix;
    const std::string key = batch_key(prefix.batch_id);
    const source::KeyValue* kv = find(index, key);
    if (kv == nullptr) return fatal("terminal batch", key, "missing (ETCD_KEY_NOT_EXIST)");
    model::Findings ignored;  // findings are reported when the batch is walked
    std::string scratch;
    MQ_ASSIGN_OR_RETURN(std::string_view text, value_of(kv, scratch));
    format::BatchView batch;
    if (Status s = format::decode_batch_view(text, key, ignored, batch); !s.ok()) {
      return fatal("terminal batch", key, s.message() + " (INTERNAL_ERROR)");
    }
    if (batch.batch_id != prefix.batch_id) {
      return fatal("terminal batch", key,
                   "record batch_id " + std::to_string(batch.batch_id) + " differs from the id in its key (rule 13)");
    }
    if (batch.last_seq != prefix.last_seq) {
      return fatal("terminal batch", key,
                   "ends at sequence " + std::to_string(batch.last_seq) + " but durable_prefix.last_seq is " +
                       std::to_string(prefix.last_seq));
    }
    return {};
  }

  // Applies one decoded batch; returns false in `stop` when --until-seq was reached. Its findings
  // go to `findings`.
  Status walk_batch(const format::BatchView& batch, const std::string& key, bool& stop, model::Findings& findings) {
    const auto& prefix = *m_result.prefix;
    if (m_scanned_any) {
      if (batch.batch_id != m_applied_batch_id + 1 || batch.first_seq != m_scanned_last_seq + 1) {
        return fatal("contiguity", key + " sequence " + std::to_string(batch.first_seq),
                     "batch " + std::to_string(batch.batch_id) + " starting at sequence " +
                         std::to_string(batch.first_seq) + " does not follow batch " +
                         std::to_string(m_applied_batch_id) + " ending at " + std::to_string(m_scanned_last_seq));
      }
    } else if (batch.batch_id > 1 && m_result.first_expected == 1) {
      findings.push_back({model::Severity::warning, key,
                          "the log starts at batch " + std::to_string(batch.batch_id) +
                              " (missing head): tolerated only when a snapshot covers it"});
    }
    m_scanned_any = true;
    // The object map's slot of the entry k_slot_ahead ahead, and the entry of the one
    // k_entry_ahead ahead, are loaded into the cache while this one is applied (hints only).
    const auto& entries = batch.entries;
    const std::size_t count = entries.size();
    std::array<ReplayTarget::Probe, k_probe_ring> probes;
    for (std::size_t i = 0; i < std::min(count, k_slot_ahead); ++i) probes[i] = m_applier.prefetch_slot(entries[i]);
    for (std::size_t i = 0; i < std::min(count, k_entry_ahead); ++i) m_applier.prefetch_entry(probes[i]);
    for (std::size_t i = 0; i < count; ++i) {
      const auto& entry = entries[i];
      if (i + k_slot_ahead < count) {
        probes[(i + k_slot_ahead) % k_probe_ring] = m_applier.prefetch_slot(entries[i + k_slot_ahead]);
      }
      if (i + k_entry_ahead < count) m_applier.prefetch_entry(probes[(i + k_entry_ahead) % k_probe_ring]);
      if (entry.sequence > prefix.last_seq) break;
      ++m_result.entries_seen;
      std::string refusal;
      if (entry.sequence > m_applier.expected()) {
        return fatal("gap", key + " sequence " + std::to_string(entry.sequence),
                     "expected sequence " + std::to_string(m_applier.expected()));
      }
      if (m_applier.apply(entry, refusal) == ApplyOutcome::refused) {
        return fatal("applier", key + " sequence " + std::to_string(entry.sequence), refusal);
      }
      if (m_options.until_seq && m_applier.expected() - 1 >= *m_options.until_seq) {
        m_result.stopped_by_until_seq = true;
        stop = true;
        return {};
      }
    }
    m_applied_batch_id = batch.batch_id;
    m_scanned_last_seq = batch.last_seq;
    return {};
  }

  Status walk(const BatchKeys& index) {
    const auto& prefix = *m_result.prefix;
    if (m_options.until_seq && m_applier.expected() - 1 >= *m_options.until_seq) {
      m_result.stopped_by_until_seq = true;
      return {};
    }
    while (true) {
      // One poll page: keys in [batches/D20(applied + 1), batches0), at most page_batches of them.
      const std::string start = batch_key(m_applied_batch_id + 1);
      auto it = std::lower_bound(index.batches.begin(), index.batches.end(), start,
                                 [](const source::KeyValue* kv, const std::string& k) { return kv->key < k; });
      const std::size_t available = static_cast<std::size_t>(index.batches.end() - it);
      const std::size_t page = std::min<std::size_t>(available, m_options.page_batches);
      // The reader decodes every batch of the page (taking its findings and errors) before it
      // applies any. Here each batch is applied as soon as it is decoded, and what the reader
      // would see is kept apart: the findings of the applying are reported after the page's
      // decode findings, and the first applying error (or the stop at --until-seq or at the
      // prefix) ends the applying but not the decoding, so that a later batch of the page that
      // does not decode is the error, as for the reader. Nothing decoded is held but the batch
      // being applied and (decode_ahead) the next.
      model::Findings apply_findings;
      std::optional<Status> apply_error;
      bool applying = true;
      bool stopped = false;
      std::size_t decoded = 0;
      PageDecoder decoder(m_keys, std::span<const source::KeyValue* const>(&*it, page), m_options.decode_ahead);
      for (std::size_t i = 0; i < page; ++i) {
        const source::KeyValue* kv = it[static_cast<std::ptrdiff_t>(i)];
        DecodedBatch& decoded_batch = decoder.next();
        for (auto& f : decoded_batch.findings) m_result.findings.push_back(std::move(f));
        switch (decoded_batch.outcome) {
          case DecodedBatch::Outcome::malformed_key:
            continue;  // skipped silently by the reader; flagged by the auditor
          case DecodedBatch::Outcome::unreadable: return decoded_batch.status;
          case DecodedBatch::Outcome::undecodable:
            return fatal("decode", kv->key, decoded_batch.status.message() + " (INTERNAL_ERROR)");
          case DecodedBatch::Outcome::wrong_id:
            return fatal(
                "rule 13", kv->key,
                "record batch_id " + std::to_string(decoded_batch.batch.batch_id) + " differs from the id in its key");
          case DecodedBatch::Outcome::decoded: break;
        }
        // The entries are views into the decoder's batch, which the applier copies what it keeps of.
        const format::BatchView& batch = decoded_batch.batch;
        ++m_result.batches_decoded;
        ++decoded;
        if (!applying) continue;
        if (m_applied_batch_id >= prefix.batch_id) {
          applying = false;
          continue;
        }
        bool stop = false;
        if (Status s = walk_batch(batch, kv->key, stop, apply_findings); !s.ok()) {
          apply_error = std::move(s);
          applying = false;
        } else if (stop) {
          stopped = true;
          applying = false;
        }
      }
      for (auto& f : apply_findings) m_result.findings.push_back(std::move(f));
      if (apply_error) return *apply_error;
      if (stopped) return {};
      if (m_applied_batch_id >= prefix.batch_id) return {};
      if (page < m_options.page_batches) {
        if (m_applier.expected() <= prefix.last_seq) {
          return fatal(
              "end of poll", batch_key(m_applied_batch_id + 1) + " sequence " + std::to_string(m_applier.expected()),
              "batches missing: the log ends before durable_prefix.last_seq " + std::to_string(prefix.last_seq));
        }
        return {};
      }
      if (decoded == 0) return {};  // a full page of malformed keys: nothing more to read
    }
  }

  util::Result<ReplayResult> finish() {
    m_result.applied_seq = m_applier.expected() - 1;
    m_result.counters = m_applier.counters();
    for (auto& f : m_applier.findings()) m_result.findings.push_back(std::move(f));
    if (m_result.prefix) {
      const auto& prefix = *m_result.prefix;
      for (const auto& kv : m_keys.kvs) {
        auto cls = source::classify_oplog_key(std::string_view(kv.key).substr(m_keys.root.size()));
        if (cls.kind == source::OpLogKeyClass::batch && cls.number > prefix.batch_id) ++m_result.orphan_batches;
      }
      if (m_result.orphan_batches > 0 && prefix.batch_id > 0) {
        m_result.findings.push_back(
            {model::Severity::error, m_keys.root + "batches/",
             std::to_string(m_result.orphan_batches) + " batches above the durable prefix (orphans, never applied)"});
      }
      if (!m_result.stopped_by_until_seq && m_result.applied_seq > prefix.last_seq) {
        m_result.findings.push_back({model::Severity::warning, "durable_prefix",
                                     "the snapshot baseline (sequence " + std::to_string(m_result.first_expected - 1) +
                                         ") is ahead of durable_prefix.last_seq " + std::to_string(prefix.last_seq)});
      }
    }
    if (m_options.until_seq && !m_result.stopped_by_until_seq) {
      m_result.findings.push_back({model::Severity::warning, "--until-seq",
                                   "sequence " + std::to_string(*m_options.until_seq) +
                                       " was not reached; replay ended at " + std::to_string(m_result.applied_seq)});
    }
    return std::move(m_result);
  }

  const source::OpLogKeySet& m_keys;
  ReplayOptions m_options;
  OpLogApplier m_applier;
  ReplayResult m_result;
  bool m_scanned_any = false;
  std::uint64_t m_applied_batch_id = 0;
  std::uint64_t m_scanned_last_seq = 0;
};

}  // namespace

util::Result<ReplayResult> replay_oplog(const source::OpLogKeySet& keys, ReplayTarget& store,
                                        std::uint64_t last_included_seq, const ReplayOptions& options) {
  return Replayer(keys, store, last_included_seq, options).run();
}

}  // namespace moonquota::restore
