// @ts-check
// The browser libraries of the playground, bundled by esbuild (build.mjs) into vendor/vendor.js.
export { EditorView, basicSetup } from 'codemirror';
export { EditorState, Compartment } from '@codemirror/state';
export { keymap } from '@codemirror/view';
export { linter, lintGutter, forceLinting, diagnosticCount } from '@codemirror/lint';
export { autocompletion } from '@codemirror/autocomplete';
export { StreamLanguage } from '@codemirror/language';
export { default as uPlot } from 'uplot';
