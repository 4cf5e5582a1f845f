"""FastSelect renders what Django's Select renders: the same name, id, attributes and options, escaped."""

from html.parser import HTMLParser

from django import forms

from web.widgets import FastSelect


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.items = []

    def handle_starttag(self, tag, attrs):
        self.items.append((tag, sorted(attrs)))

    def handle_data(self, data):
        if data.strip():
            self.items.append(("text", data.strip()))


def _parse(html):
    parser = _Collect()
    parser.feed(str(html))
    return parser.items


CHOICES = [("NL", "Nederland"), ("X<y", 'Tricky "<script>" & co'), ("GR", "Greece")]


def test_fast_select_matches_djangos_select_markup():
    attrs = {"id": "id_country", "autocomplete": "country", "aria-describedby": "help"}
    django_html = forms.Select(choices=CHOICES).render("country", "GR", attrs)
    fast_html = FastSelect(choices=CHOICES).render("country", "GR", attrs)
    assert _parse(fast_html) == _parse(django_html)
    assert "<script>" not in str(fast_html)


def test_fast_select_in_a_bound_form_matches_djangos_select():
    class Plain(forms.Form):
        country = forms.ChoiceField(choices=[("", "—"), *CHOICES])

    class Fast(forms.Form):
        country = forms.ChoiceField(choices=[("", "—"), *CHOICES], widget=FastSelect)

    for data in ({"country": "NL"}, {"country": "bogus"}, {}):
        assert _parse(Fast(data=data)["country"]) == _parse(Plain(data=data)["country"])
    assert ("select", [("id", "id_country"), ("name", "country"), ("required", None)]) in _parse(Fast()["country"])
