import { rgb } from 'pdf-lib';

/** US Letter in PDF points: Hale's callers are US health services, whose printers default to Letter. */
export const PAGE = { width: 612, height: 792, margin: 48, footerHeight: 24 } as const;

export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;

export const TYPE = {
  title: 22,
  heading: 13,
  subheading: 10.5,
  body: 9,
  small: 7.5,
  lineGap: 1.35,
} as const;

/** Colour-blind-safe pairs (Okabe–Ito blue/orange/green) on a neutral grey scale. */
export const COLOR = {
  text: rgb(0.1, 0.1, 0.12),
  muted: rgb(0.42, 0.42, 0.46),
  rule: rgb(0.8, 0.8, 0.82),
  panel: rgb(0.95, 0.95, 0.96),
  accent: rgb(0, 0.447, 0.698),
  secondary: rgb(0.902, 0.624, 0),
  optimal: rgb(0, 0.62, 0.451),
  labRange: rgb(0.82, 0.84, 0.86),
  warningPanel: rgb(1, 0.97, 0.88),
} as const;
