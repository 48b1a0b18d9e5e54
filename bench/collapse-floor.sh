#!/usr/bin/env bash
# The floor of trimming a live capture in place (issue 46): what cutting a file's start with
# fallocate(FALLOC_FL_COLLAPSE_RANGE) costs a command that appends to it, with no runboard at all.
#
#   bench/collapse-floor.sh [--bytes 1G] [--max-output 50M] [--rounds 5] [--dir DIR]
#
# The command is bench/max-output.sh's (numbered 100-byte lines, perl, 2000 lines a write, O_APPEND).
# Each round runs it three ways, in rotating order, `sync` before each:
#   alone   the file grows to BYTES (what an unbounded capture costs: the page cache takes it)
#   bare    a cutter beside it that does only what any in-place trim must: it looks at the size every
#           2 ms and, past the bound, collapses the start so that the bound less a step is kept (the
#           issue's step: a tenth of the bound); nothing written back or dropped before the cut
#   primed  the same cutter doing what runboard's wrapper does before each cut: the kept part written
#           back and waited for (sync_file_range), the file's cached pages dropped (posix_fadvise)
# and prints each one's seconds, its ratio to alone, its number of cuts, the mean time the command was
# held by one (the collapse call: it holds the file's lock), and the biggest size sampled every 100 ms.
# A ratio here is a floor for bench/max-output.sh's: runboard's wrapper cuts as `primed` does, plus
# its other duties. --dir: where the file goes (default: a temp dir; it must be ext4 or XFS, which
# can collapse). Files are removed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

BYTES=1G
BOUND=50M
ROUNDS=5
DIR=
while [ $# -gt 0 ]; do
  case "$1" in
    --bytes) BYTES=$2; shift 2 ;;
    --max-output) BOUND=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "collapse-floor.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
size_bytes=$(numfmt --from=iec "$BYTES")
bound_bytes=$(numfmt --from=iec "$BOUND")
WORK=$(mktemp -d "${DIR:-${TMPDIR:-/tmp}}/collapse-floor.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
echo "file system under $WORK: $(stat -f -c %T "$WORK")"

# One run: MODE alone|bare|primed; prints "SECONDS CUTS MEAN_CUT_MS PEAK_MIB".
run_one() {
  sync
  perl - "$1" "$WORK/capture" "$size_bytes" "$bound_bytes" <<'PERL'
use strict;
use warnings;
use POSIX ();
use Time::HiRes qw(time sleep);
my ($mode, $file, $total, $bound) = @ARGV;
unlink $file;
# x86-64 and arm64/riscv64 numbers, as the wrapper's own table has them.
my $machine = (POSIX::uname())[4];
my %x86 = (fallocate => 285, sync_file_range => 277, fadvise64 => 221);
my %gen = (fallocate => 47, sync_file_range => 84, fadvise64 => 223);
my %nr = %{ $machine eq 'x86_64' ? \%x86 : \%gen };
my $step = int($bound / 10 / 4096) * 4096;
my $t0 = time;
my $writer = fork // die "fork: $!";
if (!$writer) {
    open(STDOUT, '>>', $file) or die "$file: $!";
    $| = 1;
    my ($n, $t) = (0, 0);
    while ($t < $total) {
        my $c = q();
        for (1 .. 2000) { $n++; $c .= sprintf(qq(line %012d %s\n), $n, q(x) x 81) }
        print $c;
        $t += length($c);
    }
    print qq(last $n\n);
    POSIX::_exit(0);
}
# The size sampled every 100 ms by a process of its own (the cutter is itself held while it cuts).
pipe(my $peak_in, my $peak_out) or die "pipe: $!";
my $sampler = fork // die "fork: $!";
if (!$sampler) {
    close($peak_in);
    my $peak = 0;
    while (getppid() > 1 && !-e "$file.done") {
        my $size = -s $file // 0;
        $peak = $size if $size > $peak;
        sleep 0.1;
    }
    syswrite($peak_out, "$peak\n");    # (_exit flushes nothing)
    POSIX::_exit(0);
}
close($peak_out);
my ($cuts, $held) = (0, 0);
sleep 0.002 until -e $file;
open(my $fh, '+<', $file) or die "$file: $!";
while (waitpid($writer, POSIX::WNOHANG()) == 0) {
    my $size = -s $fh;
    if ($mode ne 'alone' && $size > $bound) {
        if ($mode eq 'primed') {
            syscall($nr{sync_file_range}, fileno($fh), 0, 0, 1 | 2 | 4) == 0 or die "sync_file_range: $!";
            syscall($nr{fadvise64}, fileno($fh), 0, 0, 4) == 0 or die "fadvise: $!";
            $size = -s $fh;
        }
        my $len = $size - $bound + $step;
        $len -= $len % 4096;
        my $t = time;
        syscall($nr{fallocate}, fileno($fh), 8, 0, $len) == 0 or die "collapse range: $!";
        $held += time - $t;
        $cuts++;
    }
    sleep 0.002;
}
die "the command failed\n" if $?;
my $seconds = time - $t0;
open(my $done, '>', "$file.done") or die "$file.done: $!";
close($done);
my $peak = <$peak_in>;
waitpid($sampler, 0);
unlink "$file.done";
printf "%.3f %d %.1f %.1f\n", $seconds, $cuts, $cuts ? 1000 * $held / $cuts : 0, $peak / 1048576;
unlink $file;
PERL
}

printf 'round  %-26s  %-26s  %-26s\n' "alone s" "bare s (ratio cuts held peak)" "primed s (ratio cuts held peak)"
declare -A secs
bare_r=(); primed_r=()
for ((r = 1; r <= ROUNDS; r++)); do
  declare -A res=()
  case $((r % 3)) in
    1) order=(alone bare primed) ;;
    2) order=(bare primed alone) ;;
    0) order=(primed alone bare) ;;
  esac
  for m in "${order[@]}"; do res[$m]=$(run_one "$m"); done
  read -r a _ _ apeak <<<"${res[alone]}"
  read -r b bc bh bpeak <<<"${res[bare]}"
  read -r p pc ph ppeak <<<"${res[primed]}"
  br=$(awk -v x="$b" -v y="$a" 'BEGIN { printf "%.3f", x / y }')
  pr=$(awk -v x="$p" -v y="$a" 'BEGIN { printf "%.3f", x / y }')
  bare_r+=("$br"); primed_r+=("$pr")
  printf '%5d  %-26s  %-26s  %-26s\n' "$r" "$a (peak ${apeak}M)" "$b ($br, $bc, ${bh}ms, ${bpeak}M)" "$p ($pr, $pc, ${ph}ms, ${ppeak}M)"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo "median ratio to alone ($BYTES, bound $BOUND, $ROUNDS rounds): bare $(median "${bare_r[@]}"), primed $(median "${primed_r[@]}")"
