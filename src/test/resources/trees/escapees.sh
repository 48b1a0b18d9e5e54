#!/bin/sh
# Descendants that escape a session by every means a process has, each writing its own pid into
# escapee-NAME.pid in the cwd and ignoring TERM, so only KILL ends it. The command itself stays
# running (it waits for its TERM-ignoring child) until the session is ended.
#
#   plain    a direct child
#   group    leaves the command's process group (setpgid)
#   session  leaves the group and the session (setsid), keeping the environment
#   ghost    setsid + double fork + cleared environment + a new name: no group, no session, no tag,
#            no parent, nothing that names it the session's but the wrapper that reaps it
#   orphan   double fork with a cleared environment, staying in the group
perl -e '$SIG{TERM} = "IGNORE"; open(F, ">escapee-plain.pid"); print F "$$\n"; close F; sleep 600' &
perl -e 'setpgrp(0, 0); $SIG{TERM} = "IGNORE"; open(F, ">escapee-group.pid"); print F "$$\n"; close F; sleep 600' &
setsid perl -e '$SIG{TERM} = "IGNORE"; open(F, ">escapee-session.pid"); print F "$$\n"; close F; sleep 600' &
setsid env -i perl -e 'fork and exit; fork and exit; $0 = "innocent"; $SIG{TERM} = "IGNORE";
    open(F, ">escapee-ghost.pid"); print F "$$\n"; close F; sleep 600' &
env -i perl -e 'fork and exit; $SIG{TERM} = "IGNORE"; open(F, ">escapee-orphan.pid"); print F "$$\n"; close F; sleep 600' &
wait
