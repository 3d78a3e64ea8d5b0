/**
 * The tour of mediagw against the embedded mock gateway. The mock gateway and the resources
 * are being added; until then this prints the steps the tour will take.
 */
const steps = [
  'start the mock gateway on 127.0.0.1',
  'upload an image, generate one, edit it with two reference files',
  'submit a video with a webhook subscription to a local receiver and wait for its event',
  'stream the video and its last frame to ./demo-output/',
  'embed two texts and compare them',
  'run a media library review and print the usable asset:// references',
];
console.log('mediagw demo — planned steps:');
for (const [i, step] of steps.entries()) console.log(`  ${i + 1}. ${step}`);
