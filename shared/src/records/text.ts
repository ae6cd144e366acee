import { z } from 'zod';
import { STORABLE_TEXT_MESSAGE, isStorableText } from '../storable-text.ts';

/** Free text the archive can store and query (see isStorableText). */
export const storableTextSchema = () => z.string().refine(isStorableText, STORABLE_TEXT_MESSAGE);

/** A label's text: trimmed, 1..max characters, storable. */
export const labelTextSchema = (max: number) =>
  z.string().trim().min(1).max(max).refine(isStorableText, STORABLE_TEXT_MESSAGE);
