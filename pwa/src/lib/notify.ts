import type { ReactElement, ReactNode } from 'react';
import { toast } from 'sonner';

/** The toast durations, per kind (docs/product.md#messages-and-toasts). Use this instead of calling sonner directly. */
export const TOAST_DURATION = {
  message: 4000,
  error: 4000,
  custom: 4000,
  success: 2000,
  loading: Number.POSITIVE_INFINITY,
} as const;
export const MAX_VISIBLE_TOASTS = 20;

export const notify = {
  message: (text: string) => toast(text, { duration: TOAST_DURATION.message }),
  /** `description`: a second line under the text (say, whom a booking is with). */
  success: (text: string, description?: ReactNode) =>
    toast.success(text, { duration: TOAST_DURATION.success, description }),
  error: (text: string) => toast.error(text, { duration: TOAST_DURATION.error }),
  loading: (text: string) => toast.loading(text, { duration: TOAST_DURATION.loading }),
  custom: (render: (id: string | number) => ReactElement) => toast.custom(render, { duration: TOAST_DURATION.custom }),
  /** A message with one action button that stays until acted on or closed; the same `id` shows it once. */
  action: (text: string, action: { label: string; onClick: () => void }, id?: string) =>
    toast(text, { duration: Number.POSITIVE_INFINITY, action, ...(id ? { id } : {}) }),
  dismiss: (id?: string | number) => toast.dismiss(id),
};
