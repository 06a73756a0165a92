#if os(Linux)
    import Foundation
    import LaunchTrace

    /// Why a recording stops early: SIGINT or SIGTERM to imgtrace, or SIGALRM when `--duration`
    /// runs out. Set from the signal handler; the recorders' loops read it (and reset it).
    nonisolated(unsafe) var stopSignal: Int32 = 0

    /// The signals both recorders stop on, and the `--duration` timer.
    enum StopSignals {
        /// What the timer's SIGALRM means: `--duration` ran out, or `--after-launch` did.
        nonisolated(unsafe) static var alarmReason = RecordingEnd.ProgramEnd.duration

        static func install() {
            // The last recording's --duration timer is spent (`record --runs`); an interrupt stays.
            if stopSignal == SIGALRM { stopSignal = 0 }
            alarmReason = .duration
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in stopSignal = signal }
            action.sa_flags = 0  // no SA_RESTART: waitpid returns EINTR and the loop sees the request
            sigemptyset(&action.sa_mask)
            for signal in [SIGINT, SIGTERM, SIGALRM] { sigaction(signal, &action, nil) }
        }

        /// Why the recording stops for `signal` (SIGALRM: the timer's reason; else an interrupt).
        static func reason(_ signal: Int32) -> RecordingEnd.ProgramEnd { signal == SIGALRM ? alarmReason : .interrupted }

        /// At the launch end: stop `seconds` later (`--after-launch`), unless `--duration` ends sooner.
        static func armAfterLaunch(_ seconds: Double) {
            var left = itimerval()
            getitimer(__itimer_which_t(ITIMER_REAL.rawValue), &left)
            let remaining = Double(left.it_value.tv_sec) + Double(left.it_value.tv_usec) / 1_000_000
            guard remaining == 0 || seconds < remaining else { return }
            alarmReason = .afterLaunch
            // A zero timer would disarm it: the smallest wait stands for "at once".
            arm(max(seconds, 0.000_001))
        }

        /// Sends SIGALRM after `seconds`.
        static func arm(_ seconds: Double) {
            var timer = itimerval()
            timer.it_value.tv_sec = Int(seconds)
            timer.it_value.tv_usec = Int((seconds - Double(Int(seconds))) * 1_000_000)
            setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
        }
    }
#endif
