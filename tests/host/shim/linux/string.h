/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HOST_SHIM_LINUX_STRING_H
#define HOST_SHIM_LINUX_STRING_H
#include <string.h>
#endif
