/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading and writing the net.core sysctls of the BPF JITs
 * (/proc/sys/net/core/NAME), shared by the boot-time test programs.
 * A NAME with a '/' is relative to /proc/sys (e.g. "kernel/kptr_restrict").
 */
#ifndef NET_CORE_SYSCTL_H
#define NET_CORE_SYSCTL_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define NET_CORE_SYSCTL_DIR "/proc/sys/net/core/"

static inline void sysctl_path(char *path, size_t n, const char *name)
{
	snprintf(path, n, "%s%s", strchr(name, '/') ? "/proc/sys/" : NET_CORE_SYSCTL_DIR,
		 name);
}

/* 0, or -1 with errno set. */
static inline int sysctl_write(const char *name, const char *val)
{
	char path[128];
	int fd, ok;

	sysctl_path(path, sizeof(path), name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

/* The value without its newline into buf; 0, or -1 with errno set. */
static inline int sysctl_read(const char *name, char *buf, size_t n)
{
	char path[128];
	ssize_t r;
	int fd;

	sysctl_path(path, sizeof(path), name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	r = read(fd, buf, n - 1);
	close(fd);
	if (r < 0)
		return -1;
	buf[r] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

#endif
