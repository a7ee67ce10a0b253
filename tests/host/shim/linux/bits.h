/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HOST_SHIM_LINUX_BITS_H
#define HOST_SHIM_LINUX_BITS_H
#ifndef BIT
#define BIT(nr) (1UL << (nr))
#endif
#ifndef GENMASK
#define GENMASK(h, l) (((~0UL) - (1UL << (l)) + 1) & (~0UL >> (63 - (h))))
#endif
#endif
