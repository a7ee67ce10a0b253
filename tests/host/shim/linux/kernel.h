/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HOST_SHIM_LINUX_KERNEL_H
#define HOST_SHIM_LINUX_KERNEL_H
#include <limits.h>
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/bits.h>
#include <linux/bug.h>
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#ifndef min
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#endif
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define S16_MAX ((s16)(U16_MAX >> 1))
#define S16_MIN ((s16)(-S16_MAX - 1))
#define U16_MAX ((u16)~0U)
#define S32_MAX ((s32)(U32_MAX >> 1))
#define S32_MIN ((s32)(-S32_MAX - 1))
#define U32_MAX ((u32)~0U)
#define sizeof_field(TYPE, MEMBER) sizeof((((TYPE *)0)->MEMBER))
#define IS_ENABLED(x) 0
#endif
