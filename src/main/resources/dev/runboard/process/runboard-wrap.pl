# runboard's session wrapper: runs the command as its child, holds its deadline and records how it
# ended, so both survive every runboard process dying.
#
#   perl runboard-wrap.pl STATUS_FILE DEADLINE_MS GRACE_MS COMMAND [ARG...]
#
# DEADLINE_MS is an absolute time in epoch milliseconds (0: no deadline). When it passes and the
# command still runs, the session's processes get TERM once, GRACE_MS to end, then KILL. When the
# command has ended, STATUS_FILE gets one line (temp file + rename):
#
#   [timeout ](exit N|signal N) at EPOCH_MS
#
# where EPOCH_MS is when the wrapper saw the command end. After a timeout, the kill follows, one
# fact a line, so runboard can report it as it reports its own kills:
#
#   term_at EPOCH_MS           when TERM was sent
#   term PID COMMAND           each process TERM went to (listed before signalling)
#   kill PID COMMAND           each process still alive after the grace, or found later, sent KILL
#   survivor PID COMMAND       each process still alive when the wrapper gave up
#
# Why a separate process: the status must be written by something that outlives the command, and
# `exit` inside a shell command must still be seen, so the command cannot be sourced.
# Why Perl: it tells "killed by signal N" from "exit 128+N", which a shell's $? cannot.
# Why no modules: one wrapper stays beside every running command, so its memory counts once per
# session. POSIX costs 2 MB of private memory, warnings 0.3 MB, Time::HiRes 0.3 MB, Errno (%!)
# 0.15 MB; builtins do the same work, errno values are compared as numbers, and the clock is read
# with syscall(). The wrapper then has 0.75 MB of private memory (a perl that only sleeps: 0.46 MB);
# bench/wrapper-memory.sh measures it.
use strict;

# Constants as subs: `use constant` would load warnings.pm.
sub ENOENT () { 2 }
sub WNOHANG () { 1 }
sub SWEEP_MS () { 3000 }    # how long KILL passes go on finding new processes (fork loops)
sub POLL_S () { 0.01 }

my ($status_file, $deadline_ms, $grace_ms) = splice(@ARGV, 0, 3);
die "runboard-wrap: usage: runboard-wrap.pl STATUS_FILE DEADLINE_MS GRACE_MS COMMAND [ARG...]\n"
    unless @ARGV && defined $grace_ms && $deadline_ms =~ /^\d+$/ && $grace_ms =~ /^\d+$/;
my $tag = defined $ENV{RUNBOARD_SESSION} ? "RUNBOARD_SESSION=$ENV{RUNBOARD_SESSION}" : undef;

# Lead a process group of our own (a tree kill signals the group) but stay in runboard's session:
# on Linux a new session is also a new scheduler autogroup, weighted like a whole application, so
# twenty busy sessions would leave the window a twenty-first of the CPU. Let go of the controlling
# terminal instead, as setsid would, so a command that opens /dev/tty fails at once rather than
# stopping on SIGTTIN.
# A PTY session is already the leader of its own session, with the PTY as its terminal: keep both.
if (getpgrp() != $$) {
    setpgrp(0, 0) or die "runboard-wrap: setpgrp: $!\n";
    if ($^O eq 'linux' && open(my $tty, '+<', '/dev/tty')) {
        ioctl($tty, 0x5422, 0);    # TIOCNOTTY
        close($tty);
    }
}

# Survive the signals a kill sends to the whole group (ours too, at the deadline), so the child's
# end can be recorded. These are handlers, not SIG_IGN: exec resets handlers to the default, so the
# command starts with default dispositions (an ignored signal would be inherited).
my @handled = qw(TERM INT HUP QUIT USR1 USR2 ALRM);
$SIG{$_} = sub { } for @handled;
$SIG{CHLD} = 'DEFAULT';    # an inherited SIG_IGN would reap the child before we could read its status

my $machine = elf_machine();
my $clock = clock_syscall($machine);
my ($raw, $ended_at);    # the command's wait status, and when it was seen ending
my $timed_out = 0;
my @kill_facts;          # after a timeout (or its adopter's death): what the kill did, as lines for the status file

# Started by bin/runboard before the runboard that adopts the session (RUNBOARD_ADOPTER, its pid: our
# parent) has started, so the command overlaps that JVM's start (docs/BENCHMARKS.md §10, round 11). If
# that parent dies before it wrote the session's record (a Ctrl-C in its first milliseconds), nobody
# would ever know of the command: the wrapper ends it, as at a deadline. The kernel says when the
# parent dies (PR_SET_PDEATHSIG); once the record exists the session lives on without it, as any does.
my $adopter = delete $ENV{RUNBOARD_ADOPTER};
my $record_file = ($status_file =~ m{^(.*)/[^/]*$} ? $1 : '.') . '/session.json';
my ($pid, $adopter_gone);
if (defined $adopter) {
    # USR2 is also what a group signal may bring: only a parent that is gone counts.
    $SIG{USR2} = sub {
        return if getppid() == $adopter;
        $adopter_gone = 1;
        end_session() if $pid && !-e $record_file && !defined $raw;
    };
    my $prctl = { 62 => 157, 183 => 167, 243 => 167 }->{$machine} || 0;
    if (!$prctl || syscall($prctl, 1, 12) != 0 || getppid() != $adopter) {    # PR_SET_PDEATHSIG, SIGUSR2
        # Unwatched, or the adopter is already gone (a JVM that cannot start is gone in milliseconds, on a
        # busy machine before this line): the command is not started, and a gone adopter's folder goes, as
        # when it dies later (else its lock would show it as a session being made, for ever).
        forget_unadopted() if getppid() != $adopter && !-e $record_file;
        exit 125;
    }
}
$pid = fork();
if (!defined $pid) {
    print STDERR "runboard: cannot start the command: fork failed: $!\n";
    exit 126;
}
if ($pid == 0) {
    # Every signal at its default, as `env --default-signal` would set them: a signal runboard was
    # started with ignored (SIGINT in a background job, SIGHUP under nohup, SIGPIPE) must not stay
    # ignored in the command. Done here rather than by env in front of the wrapper: one program less
    # to start, and no probe of env's options before each runboard's first launch.
    $SIG{$_} = 'DEFAULT' for keys %SIG;
    exec { $ARGV[0] } @ARGV;
    my $missing = $! == ENOENT;
    print STDERR "runboard: cannot run $ARGV[0]: " . exec_problem($ARGV[0], "$!") . "\n";
    # A plain exit is safe here: this script has no END blocks or objects, and STDOUT was never
    # written, so nothing of the parent's is flushed or run twice.
    exit($missing ? 127 : 126);
}
end_session() if $adopter_gone && !-e $record_file;    # it died between the check above and the fork

if ($deadline_ms == 0) {
    my ($got, $status) = (waitpid($pid, 0), $?);
    # Else the command was reaped already: by end_session when the adopter died first (its $raw), or by
    # someone else (no $raw: no status is written).
    ($raw, $ended_at) = ($status, now_ms()) if $got == $pid;
} elsif (!wait_until($deadline_ms)) {
    $timed_out = 1;
    end_session();
}

if (!defined $raw || $raw == -1) {
    exit 255;    # the child was reaped by someone else: its status is unknown, so none is written
}
my ($line, $signal, $code);
if ($raw & 127) {
    $signal = $raw & 127;
    $line = "signal $signal";
} else {
    $code = $raw >> 8;
    $line = "exit $code";
}
$line = "timeout $line" if $timed_out;
# The command has ended, so the umask is ours alone now: what this creates is readable by its owner only.
umask(077);
# runboard set the temp file's space aside when the session started: overwritten in place, it needs
# no free space, so the status is recorded even when the command filled the disk. A status that could
# not be written whole is not renamed into place.
my $tmp = "$status_file.tmp";
my $text = "$line at $ended_at\n" . join('', map { "$_\n" } @kill_facts);
my $fh;
if (open($fh, '+<', $tmp) || open($fh, '>', $tmp)) {
    binmode($fh);
    my $ok = (syswrite($fh, $text) // -1) == length($text) && truncate($fh, length($text));
    $ok = close($fh) && $ok;
    $ok ? rename($tmp, $status_file) : unlink($tmp);
}
forget_unadopted() if $adopter_gone && !-e $record_file;

# 128+N for a signal death, as the JVM reports one; re-raising the signal could dump a core of perl.
exit(defined $signal ? 128 + $signal : $code);

# Waits for the command until the deadline; true if it ended first. It blocks in waitpid while the
# deadline is far (an alarm, which counts whole seconds, wakes it a second or two early), then
# finishes the last stretch in short sleeps, to the millisecond.
sub wait_until {
    my ($deadline) = @_;
    while (1) {
        my $left = $deadline - now_ms();
        return reap() if $left <= 0;
        if ($left >= 2000) {
            my $got = 0;
            eval {
                local $SIG{ALRM} = sub { die "runboard-wrap: alarm\n" };
                alarm(int($left / 1000) - 1);
                # One statement: a signal is handled between statements, so an alarm due just as
                # the child is reaped cannot lose its status.
                ($got, $raw) = (waitpid($pid, 0), $?);
                alarm(0);
            };
            alarm(0);
            if ($got == $pid || $got == -1) {
                $ended_at = now_ms();
                return 1;
            }
        } else {
            return 1 if reap();
            select(undef, undef, undef, $left < 10 ? $left / 1000 : POLL_S);
        }
    }
}

# Reaps the command if it has ended (WNOHANG); true if it has.
sub reap {
    return 1 if defined $raw;
    my ($got, $status) = (waitpid($pid, WNOHANG), $?);
    return 0 if $got == 0;
    ($raw, $ended_at) = ($got == $pid ? $status : -1, now_ms());
    return 1;
}

# The deadline passed: end every process of the session, as the engine's tree kill does. List them
# before signalling (orphans re-parent and leave the tree), TERM once (a repeated TERM re-runs
# handlers that fork), wait up to the grace, then KILL until a full pass over /proc finds none.
# KILL goes to each process rather than to the group, which holds this wrapper too.
sub end_session {
    my %known = %{ find_session() };
    push @kill_facts, "term_at " . now_ms(), map { "term $_ " . command_of($_) } sort { $a <=> $b } keys %known;
    # Never a process of another user: as root a group signal would reach one, so when the group
    # holds one, root signals the session's own processes one by one, oldest (parents) first
    # (find_session lists only our own). Otherwise the group at once: one by one, a shell could
    # run on between its child's TERM and its own.
    my @outside = grep { my $s = stat_of($_); $s && $s->[2] != $$ } keys %known;
    if ($< == 0 && group_has_stranger()) {
        my @all = sort { $known{$a} <=> $known{$b} } keys %known;
        kill('TERM', @all) if @all;
        kill('CONT', @all) if @all;    # a stopped process only acts on its TERM once continued
    } else {
        kill('TERM', -$$);
        kill('TERM', @outside) if @outside;
        kill('CONT', -$$, @outside);
    }

    my $grace_end = now_ms() + $grace_ms;
    while (1) {
        reap();
        delete @known{ grep { !alive($_, $known{$_}) } keys %known };
        if (!%known) {
            %known = %{ find_session() };    # everything known is gone; catch what was forked meanwhile
            last unless %known;
        }
        last if now_ms() >= $grace_end;
        select(undef, undef, undef, POLL_S);
    }

    my $sweep_end = now_ms() + SWEEP_MS;
    my %killed;
    while (1) {
        my $found = find_session();
        $found->{$_} = $known{$_} for grep { alive($_, $known{$_}) } keys %known;
        %known = %$found;
        last unless %known;
        if (now_ms() >= $sweep_end) {
            print STDERR "runboard: after the timeout, processes of this session survived SIGKILL: "
                . join(' ', sort { $a <=> $b } keys %known) . "\n";
            push @kill_facts, map { "survivor $_ " . command_of($_) } sort { $a <=> $b } keys %known;
            last;
        }
        my @now = grep { alive($_, $known{$_}) } keys %known;
        push @kill_facts, map { "kill $_ " . command_of($_) } sort { $a <=> $b } grep { !$killed{$_}++ } @now;
        kill('KILL', @now);
        select(undef, undef, undef, POLL_S);
        reap();
    }
    if (!defined $raw) {
        (undef, $raw) = (waitpid($pid, 0), $?);
        $ended_at = now_ms();
    }
}

# Nobody adopted this session (its adopter died before writing the record): without output its folder
# (made by bin/runboard) goes; with output, the lock goes, so that runboard lists the folder as output
# without a record, saying where it is, instead of as a session still being made.
sub forget_unadopted {
    my $dir = $record_file =~ m{^(.*)/[^/]*$} ? $1 : '.';
    unlink("$dir/lock");
    if (-z "$dir/capture.log") {
        unlink("$dir/capture.log", $status_file, "$status_file.tmp");
        rmdir($dir);
    }
}

# The session's live processes, pid => start time: our group, our descendants, and (when the
# launcher tagged us) every process of our user carrying the tag, which catches setsid daemons.
# Never ourselves, our ancestors or init.
sub find_session {
    my %table;
    opendir(my $dir, '/proc') or return {};
    for my $p (grep { /^\d+$/ } readdir($dir)) {
        my $s = stat_of($p);
        $table{$p} = $s if $s;
    }
    closedir($dir);
    my %spare = (1 => 1);
    for (my $p = $$; $p > 0 && !$spare{$p}; $p = $table{$p} ? $table{$p}[1] : 0) {
        $spare{$p} = 1;
    }
    my $own_start = $table{$$} ? $table{$$}[3] : 0;

    my %children;
    push @{ $children{ $table{$_}[1] } }, $_ for keys %table;
    my %tree;
    my @todo = ($$);
    while (defined(my $p = shift @todo)) {
        push @todo, grep { !$tree{$_}++ } @{ $children{$p} || [] };
    }
    my %found;
    for my $p (keys %table) {
        my $s = $table{$p};
        next if $spare{$p} || $s->[0] eq 'Z' || $s->[0] eq 'X';
        next if (stat("/proc/$p"))[4] != $<;    # another user's process is never ours to signal
        # Only processes younger than us can carry our tag: older ones' environments are not read.
        if ($tree{$p} || $s->[2] == $$
                || defined $tag && $s->[3] >= $own_start && tagged($p)) {
            $found{$p} = $s->[3];
        }
    }
    return \%found;
}

# Whether our process group holds a live process of another user.
sub group_has_stranger {
    opendir(my $dir, '/proc') or return 1;
    for my $p (grep { /^\d+$/ } readdir($dir)) {
        my $s = stat_of($p);
        my @owner = $s ? stat("/proc/$p") : ();
        if (@owner && $s->[2] == $$ && $s->[0] ne 'Z' && $owner[4] != $<) {
            closedir($dir);
            return 1;
        }
    }
    closedir($dir);
    return 0;
}

# [state, ppid, pgid, start time] from /proc/PID/stat, or undef when it is gone. The command name
# may hold spaces, parentheses and newlines, so the whole file is read and the fields taken after
# its last ')'.
sub stat_of {
    my ($p) = @_;
    open(my $fh, '<', "/proc/$p/stat") or return undef;
    local $/;
    my $line = <$fh>;
    close($fh);
    my $end = defined $line ? rindex($line, ')') : -1;
    return undef if $end < 0;
    my @f = split(' ', substr($line, $end + 1));
    return [ $f[0], $f[1], $f[2], $f[19] ];
}

# The process's command line, arguments joined by spaces (empty once it is gone).
sub command_of {
    my ($p) = @_;
    open(my $fh, '<', "/proc/$p/cmdline") or return '';
    local $/;
    my $cmd = <$fh> // '';
    close($fh);
    $cmd =~ s/\0+$//;
    $cmd =~ tr/\0\n/  /;
    return $cmd;
}

# Alive and still the process we listed (same start time): a zombie has ended, and a reused pid is another.
sub alive {
    my ($p, $start) = @_;
    my $s = stat_of($p);
    return $s && $s->[0] ne 'Z' && $s->[0] ne 'X' && $s->[3] == $start;
}

# Whether the process's environment holds our exact tag entry.
sub tagged {
    my ($p) = @_;
    open(my $fh, '<', "/proc/$p/environ") or return 0;
    local $/;
    my $env = <$fh>;
    close($fh);
    return defined $env && index("\0$env", "\0$tag\0") >= 0;
}

# clock_gettime(2)'s syscall number for this CPU (its ELF machine number, from elf_machine: x86-64,
# AArch64, 64-bit RISC-V), or 0 when unknown or when its answer disagrees with time(): now_ms then uses Time::HiRes.
sub clock_syscall {
    my ($machine) = @_;
    my %numbers = (62 => 228, 183 => 113, 243 => 113);
    my $number = $numbers{$machine} || 0;
    return 0 unless $number;
    my $ms = clock_ms($number);
    return defined $ms && abs($ms / 1000 - time()) < 2 ? $number : 0;
}

# This CPU's ELF machine number, read from perl's own header (62 x86-64, 183 AArch64, 243 RISC-V);
# 0 unless a 64-bit little-endian one, the only layout the syscall numbers here are for.
sub elf_machine {
    my $elf = '';
    if (open(my $exe, '<', '/proc/self/exe')) {
        read($exe, $elf, 20);
        close($exe);
    }
    return 0 unless length($elf) == 20;
    my ($class, $order, $machine) = unpack('x4 C C x12 v', $elf);
    return $class == 2 && $order == 1 ? $machine : 0;
}

sub clock_ms {
    my ($number) = @_;
    my $ts = "\0" x 16;    # struct timespec: two 64-bit little-endian longs
    return undef unless syscall($number, 0, $ts) == 0;    # 0: CLOCK_REALTIME
    my ($s_lo, $s_hi, $ns_lo, $ns_hi) = unpack('V4', $ts);
    return int(($s_lo + $s_hi * 4294967296) * 1000 + $ns_lo / 1_000_000);
}

sub now_ms {
    if ($clock) {
        my $ms = clock_ms($clock);
        return $ms if defined $ms;
    }
    return eval { require Time::HiRes; int(Time::HiRes::time() * 1000) } // time() * 1000;
}

# Why exec failed, in words that point at the cause: errno's text alone says "No such file or
# directory" for a script whose #! interpreter is missing and "Permission denied" for a folder, both
# of which send a person looking in the wrong place. Only for a path: a bare name was searched for.
sub exec_problem {
    my ($program, $error) = @_;
    return $error unless $program =~ m{/};
    return 'it is a folder, not a program' if -d $program;
    return 'it is not executable (chmod +x it, or run it with its interpreter)' if -f _ && !-x _;
    if (-f _ && open(my $fh, '<', $program)) {
        my $first = <$fh>;
        close($fh);
        if (defined $first && $first =~ /^#!\s*(\S+)/ && !-e $1) {
            return "its interpreter $1 (named on its #! line) was not found";
        }
    }
    return $error;
}
