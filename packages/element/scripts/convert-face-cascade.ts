/**
 * Converts OpenCV's `lbpcascade_frontalface_improved.xml` into the compact module the face check
 * evaluates (src/face/frontal-face-cascade.ts). Run once, by hand, when the model changes; the
 * build only uses the committed output, never the XML.
 *
 *   apt-get download opencv-data && dpkg -x opencv-data_*.deb opencv-data
 *   node --import tsx packages/element/scripts/convert-face-cascade.ts \
 *     opencv-data/usr/share/opencv4/lbpcascades/lbpcascade_frontalface_improved.xml
 *
 * The XML's licence header (BSD-3-Clause) is copied verbatim into the output's header comment.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const OUTPUT = fileURLToPath(new URL('../src/face/frontal-face-cascade.ts', import.meta.url));

const xmlPath = process.argv[2];
if (!xmlPath) throw new Error('usage: convert-face-cascade.ts <lbpcascade_frontalface_improved.xml>');
const xml = readFileSync(xmlPath, 'utf8');

const licence = /<!--([\s\S]*?)-->/.exec(xml)?.[1];
if (!licence?.includes('Redistribution and use')) throw new Error('the licence header was not found');
const tag = (name: string, text = xml) => {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(text);
  if (!match) throw new Error(`<${name}> not found`);
  return match[1]!.trim();
};
if (tag('featureType') !== 'LBP' || tag('stageType') !== 'BOOST') throw new Error('not an LBP boosted cascade');
const width = Number(tag('width'));
const height = Number(tag('height'));

const numbers = (text: string) => text.trim().split(/\s+/).map(Number);
/** Float32 precision is what OpenCV evaluates with; 8 significant digits round-trip it. */
const float = (value: number) => Number(Math.fround(value).toPrecision(8));

const stagesXml = tag('stages');
const stages: number[] = [];
const weak: number[] = [];
for (const stage of stagesXml.split(/<!-- stage \d+ -->/).slice(1)) {
  const count = Number(tag('maxWeakCount', stage));
  stages.push(count, float(Number(tag('stageThreshold', stage))));
  const nodes = [...stage.matchAll(/<internalNodes>([\s\S]*?)<\/internalNodes>\s*<leafValues>([\s\S]*?)<\/leafValues>/g)];
  if (nodes.length !== count) throw new Error(`stage has ${nodes.length} weak classifiers, expected ${count}`);
  for (const [, internal, leaves] of nodes) {
    // Stumps only (maxDepth 1): left, right, feature index, then the 8 words of the 256-bit category subset.
    const [left, right, feature, ...subset] = numbers(internal!);
    if (left !== 0 || right !== -1 || subset.length !== 8) throw new Error('not a categorical stump');
    weak.push(feature!, ...subset.map((word) => word | 0), ...numbers(leaves!).map(float));
  }
}
const features = [...tag('features').matchAll(/<rect>([\s\S]*?)<\/rect>/g)].flatMap(([, rect]) => numbers(rect!));

const output = `/*!
 * Frontal face LBP cascade, converted from OpenCV's lbpcascade_frontalface_improved.xml
 * (Debian package opencv-data) by scripts/convert-face-cascade.ts. Its licence follows.
${licence
  .trimEnd()
  .split('\n')
  .map((line) => ` * ${line}`.trimEnd().replace(/\*\//g, '* /'))
  .join('\n')}
 */
// Generated file: edit scripts/convert-face-cascade.ts instead.

/** An LBP cascade: boosted stages of categorical stumps over multi-block LBP features. */
export interface LbpCascade {
  /** The detection window, px. */
  width: number;
  height: number;
  /** Per stage: [weak classifier count, stage threshold]. */
  stages: readonly number[];
  /** Per weak classifier, 11 numbers: feature index, 8 words of the accepted-code bit set, leaf if in the set, leaf if not. */
  weak: readonly number[];
  /** Per feature, 4 numbers: x, y, block width, block height (a 3 x 3 grid of blocks). */
  features: readonly number[];
}

export const FRONTAL_FACE: LbpCascade = {
  width: ${width},
  height: ${height},
  stages: ${JSON.stringify(stages)},
  weak: ${JSON.stringify(weak)},
  features: ${JSON.stringify(features)},
};
`;
writeFileSync(OUTPUT, output);
console.log(`${OUTPUT}: ${stages.length / 2} stages, ${weak.length / 11} weak classifiers, ${features.length / 4} features`);
