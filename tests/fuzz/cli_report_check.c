// SPDX-License-Identifier: GPL-2.0-only
/* What cmd/report.c calls of cmd/report_check.c, for fuzz_cli. */
#include "cmd/report_check.c"
