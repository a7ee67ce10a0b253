/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HOST_SECCOMP_H
#define HOST_SECCOMP_H
#include "common.h"

/* @programs random seccomp filters, built as seccomp builds them, each image
 * against an interpreter of the rewritten program (seccomp.c). */
void test_seccomp_fuzz(u64 seed, unsigned long programs);
#endif
