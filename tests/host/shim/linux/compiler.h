/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HOST_SHIM_LINUX_COMPILER_H
#define HOST_SHIM_LINUX_COMPILER_H
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#ifndef fallthrough
#define fallthrough __attribute__((__fallthrough__))
#endif
#ifndef __maybe_unused
#define __maybe_unused __attribute__((__unused__))
#endif
#ifndef __must_check
#define __must_check __attribute__((__warn_unused_result__))
#endif
#ifndef noinline
#define noinline __attribute__((__noinline__))
#endif
/* as compiler_attributes.h: gcc >= 12, else nothing */
#ifndef __uninitialized
#if defined(__has_attribute)
#if __has_attribute(__uninitialized__)
#define __uninitialized __attribute__((__uninitialized__))
#endif
#endif
#endif
#ifndef __uninitialized
#define __uninitialized
#endif
#ifndef READ_ONCE
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#endif
#endif
