#!/bin/sh
# /init of the benchmark initramfs (busybox; made by tests/bench/run-bench).
# Runs lib/test_bpf's classic tests and cbpf-bench's filter corpus under the
# three modes, collects everything in /results.txt and copies it to the
# second serial port (ttyS1), which QEMU writes to a file on the host.
# Nothing is written to a serial port while something is being timed: the
# console log level is 1 and progress lines are drained before each run.
# shellcheck shell=sh
PATH=/bin
export PATH
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
echo 1 > /proc/sys/kernel/printk

say() { echo "bench: $*"; }
R=/results.txt
NC=/proc/sys/net/core
# shellcheck disable=SC2046 # the file holds "KEY=VALUE" words
set -- $(cat /bench.conf)
for kv in "$@"; do
	case $kv in
	ITER=*) ITER=${kv#ITER=} ;;
	REPEAT=*) REPEAT=${kv#REPEAT=} ;;
	TESTBPF=*) TESTBPF=${kv#TESTBPF=} ;;
	TESTBPF_RANGES=*) TESTBPF_RANGES=$(echo "${kv#TESTBPF_RANGES=}" | tr : ' ') ;;
	esac
done

{
	echo "meta kernel $(uname -r)"
	echo "meta cmdline $(cat /proc/cmdline)"
	for v in spectre_v2 retbleed; do
		echo "meta $v $(cat /sys/devices/system/cpu/vulnerabilities/$v 2>/dev/null)"
	done
	echo "meta cpu $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
	echo "meta bpf_jit_harden $(cat $NC/bpf_jit_harden)"
	echo "meta bpf_jit_classic $([ -e $NC/bpf_jit_classic ] && echo present || echo absent)"
} > $R

# mode NAME -> sets the sysctls; fails if the mode does not exist here
mode() {
	case $1 in
	interp) [ ! -e $NC/bpf_jit_classic ] || echo 0 > $NC/bpf_jit_classic
		echo 0 > $NC/bpf_jit_enable ;;
	upstream) [ ! -e $NC/bpf_jit_classic ] || echo 0 > $NC/bpf_jit_classic
		echo 1 > $NC/bpf_jit_enable ;;
	direct) [ -e $NC/bpf_jit_classic ] || return 1
		echo 1 > $NC/bpf_jit_classic && echo 1 > $NC/bpf_jit_enable ;;
	esac
}

stats() {
	[ -e $NC/bpf_jit_classic_stats ] || return 0
	sed "s/^/stat $1 $2 /" $NC/bpf_jit_classic_stats >> $R
}

if [ "$TESTBPF" = 1 ]; then
	for m in interp upstream direct; do
		if ! mode $m; then
			say "test_bpf: mode $m not available"
			echo "tbmode $m 0" >> $R
			continue
		fi
		echo "tbmode $m 1" >> $R
		say "test_bpf classic tests, mode $m"
		stats "tb-$m" before
		dmesg -c > /dev/null
		for r in $TESTBPF_RANGES; do
			insmod /test_bpf.ko test_range=$r 2> /dev/null && rmmod test_bpf
		done
		stats "tb-$m" after
		dmesg | sed -n 's/^\[[^]]*\] //; s/^test_bpf: /tb '$m' /p' >> $R
	done
fi

if insmod /test_cbpf_jit.ko; then
	cbpf-bench run -i "$ITER" -r "$REPEAT" /filters.bpf /corpus.txt
	cat /corpus.txt >> $R
else
	say "insmod test_cbpf_jit.ko failed"
	echo "error insmod test_cbpf_jit.ko failed" >> $R
	echo "end" >> $R
fi
stats final all
dmesg | grep -E 'BUG|WARNING|Oops|UNEXPECTED' | sed 's/^/dmesg /' >> $R
say "sending results"
cat $R > /dev/ttyS1
echo "BENCH-EOF" > /dev/ttyS1
say "finished"
reboot -f
