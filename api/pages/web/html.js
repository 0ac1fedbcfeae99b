// htm bound to Preact: tagged templates instead of JSX, so the pages need no build step.
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
