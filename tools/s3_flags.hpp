// The --s3-* flags of every tool that reads or writes a store (docs/cli/README.md, "Stores on
// S3"), declared once; what they mean is app/s3_settings.
#pragma once

#include <CLI/CLI.hpp>

#include "app/s3_settings.hpp"

namespace moonquota::tools {

void add_s3_flags(CLI::App& app, app::S3Args& args);

}  // namespace moonquota::tools
