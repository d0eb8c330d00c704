// @ts-check
// The page's elements by id (index.html has each of them), typed for the checker, and the status
// line of the header.

/** @param {string} id */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
export const $input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** @param {string} id */
export const $select = (id) => /** @type {HTMLSelectElement} */ (document.getElementById(id));
/** @param {string} id */
export const $button = (id) => /** @type {HTMLButtonElement} */ (document.getElementById(id));

/**
 * The status line: `text`, in red when `isError`.
 * @param {string} text
 */
export function status(text, isError = false) {
  const s = $('status');
  s.textContent = text;
  s.classList.toggle('error', isError);
}
