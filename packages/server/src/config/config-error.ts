/** A bad option of the companion: thrown at start, its message naming each thing to fix. */
export class CompanionConfigError extends Error {
  override readonly name = 'CompanionConfigError';
}
