/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record(): one check of a boot-time checker, as the line
 * "name<TAB>pass|fail<TAB>detail" on standard output, the form
 * cbpf-jit-check's import_records reads; failures counts the failed ones.
 * While record_control is set (the checker drives the stock path alone,
 * the switch off), the line ends in "<TAB>control": a control, which the
 * report counts apart and which never fills a section's floor.
 */
#ifndef CHECK_RECORD_H
#define CHECK_RECORD_H

#include <stdarg.h>
#include <stdio.h>

static int failures;
static int record_control;

__attribute__((format(printf, 3, 4)))
static void record(const char *name, int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s\t%s\t", name, ok ? "pass" : "fail");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("%s\n", record_control ? "\tcontrol" : "");
	fflush(stdout);
	failures += !ok;
}

#endif
