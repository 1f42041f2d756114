/**
 * Runs one process of the local stack (scripts/stack.ts) so that it cannot outlive the process that
 * started it, even when that one is killed with SIGKILL and runs no cleanup: stdin is a pipe from the
 * parent, and when it closes the guard stops its whole process group (itself, the program and what
 * the program started, such as wrangler's workerd) with SIGINT, then SIGKILL after 10 s.
 * The parent spawns the guard detached (a process group of its own) and stops it by signalling
 * that group; the guard leaves with the program's exit code.
 *
 * Usage: node scripts/child-guard.ts <program> [args…]
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const [program, ...args] = process.argv.slice(2);
if (!program) {
  console.error('usage: node scripts/child-guard.ts <program> [args…]');
  process.exit(2);
}

// A signal to the group is meant for the program (the emulator exports its data on SIGINT);
// the guard stays until the program has gone.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    // Handled, so Node does not exit: the guard waits for the program's exit below.
  });

const child = spawn(program, args, { stdio: ['ignore', 'inherit', 'inherit'] });
child.on('error', (error) => {
  console.error(`child-guard: cannot run ${program}: ${error.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));

const stopGroup = () => {
  process.kill(-process.pid, 'SIGINT');
  setTimeout(() => process.kill(-process.pid, 'SIGKILL'), 10_000);
};
process.stdin.once('end', stopGroup);
process.stdin.once('error', stopGroup);
process.stdin.resume();
