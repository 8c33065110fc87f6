// Issue 11 item 12: legal tenant ids with Markdown syntax in them (backtick, '|', '<', '>', '*',
// '_', '[', '&', '\', edge spaces, ...) show exactly in a CommonMark renderer, in the tenants
// table and in the headings. Checked by a strict CommonMark unescape of markdown_escape and by
// rendering quota-reconcile's Markdown with cmark and cmark-gfm (tables) when installed
// (scripts/setup.sh installs both).
#include "report/escape.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "reconcile/reconcile_run.hpp"
#include "report/reconcile/reconcile_markdown.hpp"
#include "support/local_store.hpp"
#include "support/run_tool.hpp"

namespace moonquota::report {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> k_hostile_ids = {
    "a|b",   "`tick`", "<b>bold</b>", "x > y",   "*em* _u_", "[l](http://x)", "&amp; &#32;", "back\\slash\\",
    " lead", "trail ", "# ~~s~~ !",   "é|ü <&>", "``",       "a\\|b",         ":+1: $x$",
};

// CommonMark's reading of inline text that has no markup: "\" + ASCII punctuation is that
// character, "&#32;" is a space; a character that could open markup never stands unescaped.
std::optional<std::string> commonmark_text(const std::string& md) {
  std::string out;
  for (std::size_t i = 0; i < md.size(); ++i) {
    const char c = md[i];
    if (c == '\\') {
      if (i + 1 >= md.size() || !std::ispunct(static_cast<unsigned char>(md[i + 1]))) return std::nullopt;
      out.push_back(md[++i]);
    } else if (md.compare(i, 5, "&#32;") == 0) {
      out.push_back(' ');
      i += 4;
    } else if (std::string_view("\\`*_[]<>&|~$").find(c) != std::string_view::npos) {
      return std::nullopt;  // an unescaped character that could open markup
    } else {
      out.push_back(c);
    }
  }
  if (!out.empty() && (md.front() == ' ' || md.back() == ' ')) return std::nullopt;  // would be stripped
  return out;
}

TEST(MarkdownEscape, StrictRoundTripForEveryPrintableAsciiByte) {
  for (const auto& id : k_hostile_ids) EXPECT_EQ(commonmark_text(markdown_escape(id)), id) << id;
  std::string all;
  for (char c = ' '; c < 0x7f; ++c) all.push_back(c);
  EXPECT_EQ(commonmark_text(markdown_escape(all)), all);
  EXPECT_EQ(markdown_escape("plain id-1: x (y)."), "plain id-1: x (y).");
  EXPECT_EQ(markdown_escape("a:smile:"), "a\\:smile:");
  EXPECT_EQ(markdown_escape("  "), "&#32;&#32;");
  EXPECT_EQ(markdown_escape("a\x01"), "a\\\\x01");  // control bytes as \xNN, shown literally
}

std::string cmark_html_text(const std::string& raw) {
  std::string out;
  for (char c : raw) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"') {
      out += "&quot;";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// `command` reading `input` on stdin; nullopt when the command is not installed.
std::optional<std::string> render(const std::string& command, const std::string& input, const fs::path& dir) {
  if (std::system(("command -v " + command.substr(0, command.find(' ')) + " >/dev/null 2>&1").c_str()) != 0) {
    return std::nullopt;
  }
  const fs::path in = dir / "in.md";
  std::ofstream(in, std::ios::binary) << input;
  std::string html;
  std::FILE* pipe = ::popen((command + " < " + in.string()).c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  char buf[4096];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) html.append(buf, n);
  ::pclose(pipe);
  return html;
}

class MarkdownRendered : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("mq-md-" + std::to_string(::getpid()));
    fs::create_directories(m_dir);
    // The every-verdict live list plus one live-only (missing_metadata, so drifting) row per id.
    std::ifstream in(test::source_path("testdata/live/r1_every_verdict.json"));
    nlohmann::json list = nlohmann::json::parse(in);
    for (const auto& id : k_hostile_ids) {
      list["data"].push_back({{"tenant_id", id},
                              {"requested_quota_bytes", 0},
                              {"effective_quota_bytes", 0},
                              {"charged_bytes", 7},
                              {"admission_closed", false},
                              {"over_quota", false},
                              {"has_explicit_policy", false}});
    }
    const fs::path live = m_dir / "live.json";
    std::ofstream(live) << list.dump();

    const std::string r1 = "snapshots/genuine-live/r1_quiescent_orphan/";
    reconcile::ReconcileRequest r;
    r.metadata.selection.store_dir = test::source_path(r1 + "store");
    r.metadata.policy_file = test::source_path(r1 + "policy.yaml");
    r.metadata.restore.restore_time_ms = 1795956296529;
    r.live.list_files = {live.string()};
    auto report = reconcile::run_reconcile(test::local_files(), r);
    ASSERT_TRUE(report.ok()) << report.status().message();
    std::ostringstream md;
    render_reconcile_markdown(*report, nullptr, md);
    m_markdown = md.str();
  }
  void TearDown() override { fs::remove_all(m_dir); }

  fs::path m_dir;
  std::string m_markdown;
};

TEST_F(MarkdownRendered, CmarkGfmShowsEveryIdInTheTableAndHeadings) {
  auto html = render("cmark-gfm -e table", m_markdown, m_dir);
  if (!html) GTEST_SKIP() << "cmark-gfm is not installed (scripts/setup.sh installs it)";
  for (const auto& id : k_hostile_ids) {
    EXPECT_NE(html->find("<td>" + cmark_html_text(id) + "</td>"), std::string::npos) << id << "\n" << *html;
    EXPECT_NE(html->find("<h3>" + cmark_html_text(id) + ": missing_metadata, delta +7 bytes</h3>"), std::string::npos)
        << id;
  }
}

TEST_F(MarkdownRendered, CmarkShowsEveryIdInHeadingsAndRowText) {
  auto html = render("cmark", m_markdown, m_dir);
  if (!html) GTEST_SKIP() << "cmark is not installed (scripts/setup.sh installs it)";
  for (const auto& id : k_hostile_ids) {
    // Without the table extension a row is paragraph text: the id still reads exactly.
    EXPECT_NE(html->find("| " + cmark_html_text(id) + " | 0 | 7 |"), std::string::npos) << id;
    EXPECT_NE(html->find("<h3>" + cmark_html_text(id) + ": missing_metadata, delta +7 bytes</h3>"), std::string::npos)
        << id;
  }
}

}  // namespace
}  // namespace moonquota::report
