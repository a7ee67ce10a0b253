#!/bin/sh
# Boot a built kernel under QEMU (TCG, 2 vCPUs, 2G) with a busybox
# initramfs that loads the test_cbpf_jit module and runs the differential
# fuzzer cbpf-jit-fuzz (tests/boot) once; prints its output, its records
# and any kernel warning.  Exit status: the fuzzer's (1 when no result).
#
# Usage: tests/kernel-quick/run-fuzz.sh [KERNEL_TREE] [OUT_DIR]
#   KERNEL_TREE  configured and built tree with arch/x86/boot/bzImage
#                (default: build/pkg-vm/linux); the module is built
#                against it from build/testmod
#   OUT_DIR      initramfs, console log, reproducers (default:
#                build/kernel-quick-fuzz)
# Environment: FUZZ_SECONDS (default 180), FUZZ_SEED, FUZZ_ARGS (more
#   options for cbpf-jit-fuzz), FUZZ_REPRO (a saved reproducer: re-run it
#   with --repro instead of fuzzing), QEMU_SMP (2), QEMU_MEM (2G), QEMU_CPU,
#   BUSYBOX (/bin/busybox, from busybox-static).
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
kdir=${1:-$top/build/pkg-vm/linux}
out=${2:-$top/build/kernel-quick-fuzz}
busybox=${BUSYBOX:-/bin/busybox}
seconds=${FUZZ_SECONDS:-180}
seed=${FUZZ_SEED:-}
args=${FUZZ_ARGS:-}

for f in "$kdir/arch/x86/boot/bzImage" "$busybox"; do
	if [ ! -e "$f" ]; then
		echo "missing: $f" >&2
		exit 1
	fi
done
case "$seconds$seed" in
*[!0-9]*)
	echo "FUZZ_SECONDS and FUZZ_SEED must be numbers" >&2
	exit 1
	;;
esac

nice -n 10 make -s -C "$kdir" M="$top/build/testmod" modules

rm -rf "$out/root"
mkdir -p "$out/root/bin" "$out/root/proc" "$out/root/sys" "$out/root/dev" \
	"$out/root/tmp"
cp "$busybox" "$out/root/bin/busybox"
for app in sh mount cat grep echo insmod rmmod dmesg reboot sleep ls; do
	ln -s busybox "$out/root/bin/$app"
done
cp "$top/build/testmod/test_cbpf_jit.ko" "$out/root/test_cbpf_jit.ko"
if [ -n "${FUZZ_REPRO:-}" ]; then
	cp "$FUZZ_REPRO" "$out/root/repro.txt"
	args="--repro /repro.txt $args"
fi
h=$top/tests/host
nice -n 10 gcc -O2 -static -Wall -Wextra -std=gnu11 -D_GNU_SOURCE -I"$h/shim" -I"$h" -I"$top/tests/include" \
	-o "$out/root/bin/cbpf-jit-fuzz" "$top/tests/boot/cbpf-jit-fuzz.c" \
	"$h/gen.c" "$h/refinterp.c" "$h/skbmodel.c"

{
	cat <<'INIT'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs none /sys/kernel/debug
mkdir -p /tmp/repro
echo "FZ-START"
insmod /test_cbpf_jit.ko || echo "insmod test_cbpf_jit failed"
echo "bpf_jit_enable=$(cat /proc/sys/net/core/bpf_jit_enable)" \
	"bpf_jit_classic=$(cat /proc/sys/net/core/bpf_jit_classic 2>/dev/null || echo absent)"
INIT
	if [ -n "${FUZZ_REPRO:-}" ]; then
		printf 'cbpf-jit-fuzz %s\n' "$args"
	else
		printf 'cbpf-jit-fuzz --seconds %s %s --records /tmp/records --out /tmp/repro %s\n' \
			"$seconds" "${seed:+--seed $seed}" "$args"
	fi
	cat <<'INIT'
echo "FZ-RC $?"
echo "--- records"
cat /tmp/records 2>/dev/null
echo "--- net.core.bpf_jit_classic_stats"
cat /proc/sys/net/core/bpf_jit_classic_stats 2>/dev/null
echo
echo "--- kernel warnings"
dmesg | grep -E 'BUG|WARNING|Oops|RIP:|Call Trace|test_cbpf_jit' | head -n 40
echo "FZ-END"
reboot -f
INIT
} > "$out/root/init"
chmod +x "$out/root/init"

(cd "$out/root" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out/initramfs.gz"

cpu=${QEMU_CPU:+-cpu $QEMU_CPU}
# shellcheck disable=SC2086 # $cpu is empty or two words
timeout $((seconds + 600)) \
qemu-system-x86_64 -accel tcg $cpu -smp "${QEMU_SMP:-2}" -m "${QEMU_MEM:-2G}" \
	-nographic -no-reboot \
	-kernel "$kdir/arch/x86/boot/bzImage" -initrd "$out/initramfs.gz" \
	-append 'console=ttyS0 panic=-1 quiet loglevel=3' \
	< /dev/null > "$out/console.log" 2>&1 || true

sed -n '/FZ-START/,/FZ-END/p' "$out/console.log"
rc=$(sed -n 's/^FZ-RC \([0-9]*\).*/\1/p' "$out/console.log")
[ -n "$rc" ] || { echo "no result (see $out/console.log)" >&2; exit 1; }
exit "$rc"
