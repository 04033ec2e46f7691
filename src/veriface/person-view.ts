/** What a face validation's photo steps answer the person. Types only: the people's pages import it. */
export interface PersonView {
  code: string;
  name: string;
  platform: 'whatsapp' | 'web';
  country: string;
  documentType: string;
  captured: { documentFront: boolean; documentBack: boolean; face: boolean };
}
