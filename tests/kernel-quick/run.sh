#!/bin/sh
# Boot a freshly built kernel under QEMU (TCG) with a busybox initramfs and
# run lib/test_bpf and cbpf-sock (socket filters with known results, as
# root and as an unprivileged user) three times: direct classic JIT off,
# on, and on with net.core.bpf_jit_harden=2 (constant blinding); then
# cbpf-sock once with bpf_jit_classic=2 (image dumps).  Prints the
# summaries and net.core.bpf_jit_classic_stats after each run.
#
# Usage: tests/kernel-quick/run.sh [KERNEL_TREE] [OUT_DIR]
#   QEMU_CPU=<model> picks the guest CPU (e.g. Skylake-Client-v4, an Intel
#   model on which the kernel enables the BHB clearing loop).
#   KERNEL_TREE  built tree with arch/x86/boot/bzImage and lib/test_bpf.ko
#                (default: build/linux-dev)
#   OUT_DIR      work directory for the initramfs and the console log
#                (default: build/kernel-quick)
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
kdir=${1:-$top/build/linux-dev}
out=${2:-$top/build/kernel-quick}
busybox=${BUSYBOX:-/bin/busybox}

for f in "$kdir/arch/x86/boot/bzImage" "$kdir/lib/test_bpf.ko" "$busybox"; do
	if [ ! -e "$f" ]; then
		echo "missing: $f" >&2
		exit 1
	fi
done

rm -rf "$out/root"
mkdir -p "$out/root/bin" "$out/root/proc" "$out/root/sys" "$out/root/dev"
cp "$busybox" "$out/root/bin/busybox"
for app in sh mount cat grep echo insmod rmmod dmesg reboot sleep; do
	ln -s busybox "$out/root/bin/$app"
done
cp "$kdir/lib/test_bpf.ko" "$out/root/test_bpf.ko"
gcc -O2 -static -Wall -o "$out/root/bin/cbpf-sock" "$top/tests/kernel-quick/cbpf-sock.c"

cat > "$out/root/init" <<'INIT'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null

run() {
	echo "=== run: bpf_jit_classic=$1 bpf_jit_harden=$2"
	echo "$1" > /proc/sys/net/core/bpf_jit_classic
	echo "$2" > /proc/sys/net/core/bpf_jit_harden
	dmesg -c > /dev/null
	cbpf-sock
	cbpf-sock unpriv
	if insmod /test_bpf.ko; then
		rmmod test_bpf
	else
		echo "insmod test_bpf failed"
	fi
	dmesg | grep -E 'test_bpf: (Summary|test_)|FAIL|UNEXPECTED|BUG|WARNING|Oops'
	sleep 2
	echo "--- net.core.bpf_jit_classic_stats"
	cat /proc/sys/net/core/bpf_jit_classic_stats
	echo
}

echo "KQ-START"
cat /proc/sys/net/core/bpf_jit_enable
run 0 0
run 1 0
run 1 2
echo "=== dump: bpf_jit_classic=2"
echo 2 > /proc/sys/net/core/bpf_jit_classic
echo 0 > /proc/sys/net/core/bpf_jit_harden
dmesg -c > /dev/null
cbpf-sock unpriv
echo "images dumped: $(dmesg | grep -c 'flen=')"
dmesg | grep -m 3 -A 2 'flen='
for v in spectre_v2 retbleed; do
	echo "$v: $(cat /sys/devices/system/cpu/vulnerabilities/$v)"
done
dmesg -c > /dev/null
echo "KQ-END"
# -no-reboot turns the reboot into a QEMU exit (works without ACPI too)
reboot -f
INIT
chmod +x "$out/root/init"

(cd "$out/root" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out/initramfs.gz"

cpu=${QEMU_CPU:+-cpu $QEMU_CPU}
# shellcheck disable=SC2086 # $cpu is empty or two words
timeout "${QEMU_TIMEOUT:-1200}" \
qemu-system-x86_64 -accel tcg $cpu -m 1G -nographic -no-reboot \
	-kernel "$kdir/arch/x86/boot/bzImage" -initrd "$out/initramfs.gz" \
	-append 'console=ttyS0 panic=-1 quiet loglevel=3' \
	< /dev/null > "$out/console.log" 2>&1 || true

sed -n '/KQ-START/,/KQ-END/p' "$out/console.log"
grep -q KQ-END "$out/console.log"
