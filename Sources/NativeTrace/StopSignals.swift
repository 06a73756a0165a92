#if os(Linux)
    import Foundation

    /// Why a recording stops early: SIGINT or SIGTERM to imgtrace, or SIGALRM when `--duration`
    /// runs out. Set from the signal handler; the recorders' loops read it (and reset it).
    nonisolated(unsafe) var stopSignal: Int32 = 0

    /// The signals both recorders stop on, and the `--duration` timer.
    enum StopSignals {
        static func install() {
            // The last recording's --duration timer is spent (`record --runs`); an interrupt stays.
            if stopSignal == SIGALRM { stopSignal = 0 }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in stopSignal = signal }
            action.sa_flags = 0  // no SA_RESTART: waitpid returns EINTR and the loop sees the request
            sigemptyset(&action.sa_mask)
            for signal in [SIGINT, SIGTERM, SIGALRM] { sigaction(signal, &action, nil) }
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
