/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the uapi errno values (E2BIG, EFAULT, ERANGE, ...). */
#ifndef HOST_SHIM_LINUX_ERRNO_H
#define HOST_SHIM_LINUX_ERRNO_H
#include_next <linux/errno.h>
#endif
