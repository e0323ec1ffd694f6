// SPDX-License-Identifier: GPL-2.0-only
/* What cmd/trace.c calls of cmd/trace_print.c, for fuzz_cli. */
#include "cmd/trace_print.c"
