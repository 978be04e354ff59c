/**
 * The distribution's size budgets, min+gzip (level 9), in bytes: checked by the size test and
 * reported by `npm run bench` (section 1), from here alone.
 */
export const SIZE_BUDGETS = {
  /**
   * First load of a script-tag form (intro, consent and data steps). It must hold what tells a
   * person that a file the page does not serve is the page's fault (its words in three languages,
   * the check, the console line), since the photo steps are the file most often left out; what
   * only a page that has sent something reads (the upload's errors) is in the photo steps. The
   * large icon of every ending is in it too (a session that cannot be used shows it before
   * anything else loads), and `onboarding-continue`'s class, which the page imports from the
   * bundle. So is the shape a session gives the flow (the CPF step after the document it is read
   * from, the proof-of-address step and its stage), which decides the steps and the stages shown
   * from the first one on; the texts and views of those steps come with the photo steps.
   */
  firstLoad: 26 * 1024,
  /** The document reader's lazy files, summed. */
  reader: 350 * 1024,
  /** The liveness challenge as fetched: its worker, the model's files and one of TensorFlow.js's WASM builds. */
  liveness: 1_000_000,
} as const;
