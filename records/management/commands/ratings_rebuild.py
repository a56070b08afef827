from django.core.management.base import BaseCommand

from records.services import ratings_rebuild


class Command(BaseCommand):
    help = (
        "Recompute every rating from the finished parties between four people, in the order "
        "they ended (the same numbers as those the Finisher wrote)."
    )

    def handle(self, *args, **options):
        rated = ratings_rebuild()
        self.stdout.write(f"{rated} partie(s) rated.")
