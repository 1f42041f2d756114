import type { ReactElement, ReactNode } from 'react';
import type { toast as sonnerToast } from 'sonner';

/** The toast durations, per kind (docs/product-reference.md#messages-and-toasts). Use this instead of calling sonner directly. */
export const TOAST_DURATION = {
  message: 4000,
  error: 4000,
  custom: 4000,
  success: 2000,
  loading: Number.POSITIVE_INFINITY,
} as const;
export const MAX_VISIBLE_TOASTS = 20;

let asked = false;
const listeners = new Set<() => void>();

/** Whether any message was sent yet (the Toaster mounts with the first one: provider.tsx). */
export const messagesAsked = () => asked;
export function onFirstMessage(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * sonner loads with the first message, not with the page: most visits show none, and loading it as the page became
 * interactive (its code, and the style sheet it inserts) blocked a phone's main thread when a tap should not wait.
 * Messages keep their order (each waits for the same module), and the Toaster, mounted with the first message
 * (provider.tsx), shows the ones sent before it was there.
 */
function show(send: (toast: typeof sonnerToast) => unknown) {
  if (!asked) {
    asked = true;
    for (const listener of listeners) listener();
  }
  import('sonner').then(
    ({ toast }) => void send(toast),
    (cause: unknown) => console.error(cause),
  );
}

export const notify = {
  message: (text: string) => show((toast) => toast(text, { duration: TOAST_DURATION.message })),
  /** `description`: a second line under the text (say, whom a booking is with). */
  success: (text: string, description?: ReactNode) =>
    show((toast) => toast.success(text, { duration: TOAST_DURATION.success, description })),
  error: (text: string) => show((toast) => toast.error(text, { duration: TOAST_DURATION.error })),
  loading: (text: string) => show((toast) => toast.loading(text, { duration: TOAST_DURATION.loading })),
  custom: (render: (id: string | number) => ReactElement) =>
    show((toast) => toast.custom(render, { duration: TOAST_DURATION.custom })),
  /** A message with one action button that stays until acted on or closed; the same `id` shows it once. */
  action: (text: string, action: { label: string; onClick: () => void }, id?: string) =>
    show((toast) => toast(text, { duration: Number.POSITIVE_INFINITY, action, ...(id ? { id } : {}) })),
  dismiss: (id?: string | number) => show((toast) => toast.dismiss(id)),
};
