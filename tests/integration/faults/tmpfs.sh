# Shared by the fault tests that need a small filesystem of their own (source it after
# daemon/lib.sh, in the work directory).
# mount_tmpfs SIZE: a tmpfs of SIZE (mount's size=, e.g. 6m) on ./mnt, unmounted at exit;
# without root (or without mount(2)) the test is skipped: exit 77.
mount_tmpfs() {
  mkdir -p mnt
  if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o "size=$1" tmpfs mnt 2>/dev/null; then
    echo "SKIP: needs root to mount a tmpfs"
    exit 77
  fi
  trap 'kill -9 $(jobs -p) 2>/dev/null || true; umount -l "$work/mnt" 2>/dev/null; [ -n "${EPDD_KEEP:-}" ] || rm -rf "$work"' EXIT
}
