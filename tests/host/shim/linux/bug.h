/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: BUG/WARN abort the test so a broken invariant is a failure. */
#ifndef HOST_SHIM_LINUX_BUG_H
#define HOST_SHIM_LINUX_BUG_H
#include <stdio.h>
#include <stdlib.h>
#include <linux/compiler.h>

/* runtime form: also used inside statement expressions, which are not
 * constant expressions for _Static_assert */
#define BUILD_BUG_ON(c) do { if (c) BUG(); } while (0)
#define BUG() do { fprintf(stderr, "BUG at %s:%d\n", __FILE__, __LINE__); abort(); } while (0)
#define BUG_ON(c) do { if (unlikely(c)) BUG(); } while (0)
#define WARN_ON(c) ({ int __w = !!(c); if (__w) { fprintf(stderr, "WARNING at %s:%d: %s\n", __FILE__, __LINE__, #c); host_shim_warn_count++; } __w; })
#define WARN_ON_ONCE(c) WARN_ON(c)
#define WARN(c, ...) ({ int __w = !!(c); if (__w) { fprintf(stderr, __VA_ARGS__); host_shim_warn_count++; } __w; })
#define WARN_ONCE(c, ...) WARN(c, __VA_ARGS__)
extern unsigned long host_shim_warn_count;
#endif
