/** How `npm run demo` prints a step's checks. */

/**
 * Prints a step's verdict: its `OK: <okLine>` line, or one `! <problem>` line per problem.
 * @returns true when a check failed
 */
export function reportChecks(problems: readonly string[], okLine: string): boolean {
  if (problems.length === 0) console.log(`   OK: ${okLine}`);
  for (const p of problems) console.log(`   ! ${p}`);
  return problems.length > 0;
}
