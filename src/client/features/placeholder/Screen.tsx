import { Page } from '../../ui/Page';

/** A route whose screen is built by a later issue: its frame and title, nothing pretended. */
export function Screen({ title, back = true }: { title: string; back?: boolean }) {
  return <Page title={title} back={back}>{null}</Page>;
}
